// login.js — paste a token from `scontrol token`.
import { get, setToken } from "../api.js";
import { h } from "../dom.js";

export function loginView(el, r) {
	const msg = h("p", { class: "error", role: "alert", id: "login-error" });
	const box = h("textarea", {
		id: "token", rows: 4, cols: 60, autocomplete: "off", spellcheck: "false",
		placeholder: "SLURM_JWT=eyJhbGciOi…", "aria-label": "Token",
	});
	const submit = async (ev) => {
		ev.preventDefault();
		const t = box.value.trim().replace(/^(export\s+)?SLURM_JWT=/, "");
		if (!t) {
			msg.textContent = "Paste a token first.";
			return;
		}
		setToken(t);
		try {
			await get("ping");
		} catch (e) {
			setToken(null);
			msg.textContent = `Refused: ${e.message}`;
			return;
		}
		const next = r.params.next;
		location.hash = next && !next.startsWith("/login") ? "#" + next :
			"#/overview";
	};
	if (r.params.expired)
		msg.textContent = "Your token expired or was refused: paste a new one " +
			"to carry on where you were.";
	el.append(h("section", { class: "login" },
		h("h1", null, "Log in"),
		h("p", null, "Run ", h("code", null, "scontrol token"),
		  " on a login node and paste what it prints (the whole ",
		  h("code", null, "SLURM_JWT=…"), " line or just the token). ",
		  "The token stays in this tab only and is sent to slurmrestd with " +
		  "each request; the controller checks every action."),
		h("form", { id: "login-form", onsubmit: submit },
		  box, h("div", null, h("button", { type: "submit", id: "login" }, "Log in"))),
		msg));
	box.focus();
}
