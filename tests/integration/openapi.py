"""Check a --json document against Slurm 25.05's schema for it.

openapi_v0.0.43.json holds, in the shared REST reference's compact form
(a "$ref" is a bare schema name), the schemas the tests validate against.
Here they become JSON Schema with one addition: an object may carry no
member its schema does not list, so a misspelt or invented key fails as
surely as a missing or mistyped one.  To validate another document, add
its schema (and what it references) to the file.
"""

import json
import os

import jsonschema

_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                     "openapi_v0.0.43.json")


def _convert(node):
    if isinstance(node, list):
        return [_convert(v) for v in node]
    if not isinstance(node, dict):
        return node
    out = {}
    for k, v in node.items():
        if k == "$ref":
            out[k] = "#/definitions/" + v
        elif k == "required":
            # "a/b" names a nested member: not JSON Schema; checked by
            # the nested object's own schema where it matters
            out[k] = [name for name in v if "/" not in name]
        elif k == "properties":
            out[k] = {name: _convert(s) for name, s in v.items()}
        else:
            out[k] = _convert(v)
    if "properties" in out and "$ref" not in out:
        out["additionalProperties"] = False
    return out


# The full compact spec slurmrestd compiles in (every schema of a version).
SPEC_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                        "..", "src", "restd", "spec")


def validate(doc, name, spec_file=None):
    """Raise jsonschema.ValidationError unless doc matches schema name
    (e.g. "v0.0.43_openapi_reservation_resp"), from spec_file (default:
    the tests' own subset, openapi_v0.0.43.json)."""
    with open(spec_file or _FILE) as f:
        defs = {k: _convert(v) for k, v in json.load(f)["schemas"].items()}
    schema = {"definitions": defs, "$ref": "#/definitions/" + name}
    jsonschema.Draft4Validator(schema).validate(doc)
