// shares.js — the fair-share tree, as sshare shows it.
import { h, fill } from "../dom.js";
import { num } from "../format.js";
import { fetchDoc } from "../store.js";

const f = (v, d = 6) => {
	const n = num(v);
	return n === null || n === undefined ? "" : typeof n === "number" ? n.toFixed(d) : String(n);
};

export function sharesView(el) {
	const body = h("div", { id: "shares" }, "Loading…");
	el.append(h("section", null, h("h1", null, "Fair share"), body));
	fetchDoc("shares", 30000).then((d) => {
		const rows = (d.shares && d.shares.shares) || [];
		const depth = {};
		for (const r of rows)
			depth[r.name + "/" + (r.type || []).join()] = r.parent ? (depth[r.parent + "/ASSOCIATION"] ?? 0) + 1 : 0;
		fill(body, rows.length ? h("table", { class: "tbl" },
			h("thead", null, h("tr", null, ["Account / User", "RawShares", "NormShares",
				"RawUsage", "EffectvUsage", "FairShare", ""].map((t) => h("th", { scope: "col" }, t)))),
			h("tbody", null, rows.map((r) => {
				const user = (r.type || []).includes("USER");
				const fs = num(r.fairshare && r.fairshare.factor);
				const lvl = depth[r.name + "/" + (r.type || []).join()] || 0;
				return h("tr", null,
					h("td", { style: { paddingLeft: `${0.5 + lvl}em` } }, user ? `└ ${r.name}` : r.name),
					h("td", null, String(num(r.shares) ?? "")),
					h("td", null, f(r.shares_normalized)),
					h("td", null, String(num(r.usage) ?? "")),
					h("td", null, f(r.effective_usage)),
					h("td", null, f(fs)),
					h("td", null, fs !== null && fs !== undefined && isFinite(fs) ?
						h("div", { class: "meter-bar small" }, h("div", {
							class: "meter-fill", style: { width: `${Math.round(fs * 100)}%` } })) : ""));
			}))) : h("p", null, "No shares (accounting is not enabled?)."));
	}).catch((e) => fill(body, h("p", { class: "error" }, e.message)));
}
