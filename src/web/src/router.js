// router.js — every view and filter has a URL: #/jobs?state=PENDING&me=1.

export function parseHash(hash = location.hash) {
	const s = hash.replace(/^#\/?/, "");
	const [path, query = ""] = s.split("?");
	const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
	return {
		view: parts[0] || "overview",
		arg: parts[1],
		params: Object.fromEntries(new URLSearchParams(query)),
	};
}

export function href(view, arg, params) {
	let s = "#/" + view;
	if (arg !== undefined && arg !== null)
		s += "/" + encodeURIComponent(arg);
	const q = new URLSearchParams();
	for (const [k, v] of Object.entries(params || {}))
		if (v !== undefined && v !== null && v !== "")
			q.set(k, v);
	const qs = q.toString();
	return qs ? s + "?" + qs : s;
}

export function go(view, arg, params) {
	location.hash = href(view, arg, params);
}

// Change the query of the current view without adding history entries.
export function setParams(params) {
	const r = parseHash();
	history.replaceState(null, "", href(r.view, r.arg, params));
}
