"""JSON Web Tokens for the tests: one from `scontrol token`, or one made
here with a key (to forge expired, future, foreign-key or alg-none ones)."""

import base64
import hashlib
import hmac
import json
import re


def token_of(c, user, *args):
    """The token `scontrol token [args]` prints for user (None: root)."""
    r = c.run(["scontrol", "token"] + list(args), user=user)
    assert r.rc == 0, r
    m = re.fullmatch(r"SLURM_JWT=(\S+)\n", r.out)
    assert m, r
    return m.group(1)


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def claims_of(tok):
    p = tok.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(p + "=" * (-len(p) % 4)))


def make_token(secret, claims, header=None, digest=hashlib.sha256):
    """HS256 (or digest) over header.claims with secret; digest None: no
    signature."""
    header = header or {"alg": "HS256", "typ": "JWT"}
    signing = "%s.%s" % (b64url(json.dumps(header).encode()),
                         b64url(json.dumps(claims).encode()))
    sig = b64url(hmac.new(secret, signing.encode(), digest).digest()) \
        if digest else ""
    return signing + "." + sig
