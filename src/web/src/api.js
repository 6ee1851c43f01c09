// api.js — slurmrestd's REST API with the user's token.
//
// The token (from `scontrol token`) lives in sessionStorage: gone when the
// tab closes, never in a cookie, so the browser never sends it on its own
// and another site cannot make requests with it.  Every call sends it in
// X-SLURM-USER-TOKEN; a 401 drops it and returns to the login page.
//
// Without a token the page first asks slurmrestd who it is (GET ping with
// no token): a slurmrestd that authenticates requests itself — behind a
// trusted proxy that logs the user in and adds X-SLURM-USER-NAME with a
// SlurmUser token, or rest_auth/local on a unix socket reached through a
// proxy of the same user — answers it, and its meta.client.user is who
// the page acts as.  Anywhere else the answer is 401 and the login page
// asks for a token.

export const VER = "v0.0.43";
const KEY = "sluice.token";

let onUnauthorized = () => {};

export function setUnauthorizedHandler(f) {
	onUnauthorized = f;
}

// A refused token: forget it and let the shell return to the login page.
export function unauthorized() {
	setToken(null);
	proxyUser = "";
	onUnauthorized();
}

export function token() {
	return sessionStorage.getItem(KEY);
}

// The user of a session slurmrestd authenticates without a token ("" when
// there is none).
let proxyUser = "";

export function sessionUser() {
	return token() ? claims().sun || "" : proxyUser;
}

export function loggedIn() {
	return !!token() || !!proxyUser;
}

// true when slurmrestd answers without a token (see the top).
export async function probeSession() {
	proxyUser = "";
	try {
		const r = await fetch(`/slurm/${VER}/ping`, {
			headers: { Accept: "application/json" },
			credentials: "omit", cache: "no-store",
		});
		if (!r.ok)
			return false;
		const doc = await r.json();
		const u = doc && doc.meta && doc.meta.client && doc.meta.client.user;
		proxyUser = typeof u === "string" ? u : "";
	} catch {
		proxyUser = "";
	}
	return !!proxyUser;
}

export function setToken(t) {
	if (t)
		sessionStorage.setItem(KEY, t);
	else
		sessionStorage.removeItem(KEY);
}

// The token's claims (sun: user name, exp): for display and "me" only;
// slurmrestd and the controller are the ones that check it.
export function claims(t = token()) {
	try {
		const p = t.split(".")[1].replace(/-/g, "+").replace(/_/g, "/");
		return JSON.parse(atob(p + "===".slice((p.length + 3) % 4)));
	} catch {
		return {};
	}
}

export class ApiError extends Error {
	constructor(status, doc, text) {
		const errs = (doc && doc.errors) || [];
		const msg = errs.map((e) => e.description || e.error).filter(Boolean)
			.join("; ") || text || `HTTP ${status}`;
		super(msg);
		this.status = status;
		this.doc = doc;
	}
}

// method, path under /slurm/VER/ (or absolute), body object.
export async function call(method, path, body) {
	const t = token();
	const url = path.startsWith("/") ? path : `/slurm/${VER}/${path}`;
	const headers = { Accept: "application/json" };
	if (t)
		headers["X-SLURM-USER-TOKEN"] = t;
	if (body !== undefined)
		headers["Content-Type"] = "application/json";
	const r = await fetch(url, {
		method, headers, credentials: "omit", cache: "no-store",
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await r.text();
	let doc = null;
	try {
		doc = JSON.parse(text);
	} catch {
		doc = null;
	}
	if (r.status === 401) {
		unauthorized();
		throw new ApiError(401, doc, "Your token was refused (expired?)");
	}
	if (!r.ok || (doc && doc.errors && doc.errors.length))
		throw new ApiError(r.status, doc, text.slice(0, 200));
	return doc;
}

export const get = (p) => call("GET", p);
export const post = (p, b) => call("POST", p, b ?? {});
export const del = (p) => call("DELETE", p);
