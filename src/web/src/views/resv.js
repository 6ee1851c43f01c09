// resv.js — reservations (scontrol show reservation).
import { h, fill } from "../dom.js";
import { list, num, timeEl, duration } from "../format.js";
import { fetchDoc } from "../store.js";

export function resvView(el) {
	const body = h("div", { id: "resv" }, "Loading…");
	el.append(h("section", null, h("h1", null, "Reservations"), body));
	fetchDoc("reservations").then((d) => {
		const rs = d.reservations || [];
		fill(body, rs.length ? h("table", { class: "tbl" },
			h("thead", null, h("tr", null, ["Name", "Start", "End", "Duration", "Nodes",
				"Cores", "Users", "Accounts", "Partition", "Flags"]
				.map((t) => h("th", { scope: "col" }, t)))),
			h("tbody", null, rs.map((r) => {
				const st = num(r.start_time), en = num(r.end_time);
				return h("tr", null, h("td", null, r.name), h("td", null, timeEl(st)),
					h("td", null, timeEl(en)),
					h("td", null, st && en && isFinite(en) ? duration(en - st) : ""),
					h("td", null, list(r.node_list)),
					h("td", null, String(num(r.core_count) ?? "")),
					h("td", null, list(r.users)), h("td", null, list(r.accounts)),
					h("td", null, list(r.partition)), h("td", null, list(r.flags)));
			}))) : h("p", null, "No reservations."));
	}).catch((e) => fill(body, h("p", { class: "error" }, e.message)));
}
