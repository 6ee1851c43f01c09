// timeline.js — the backfill plan as a Gantt chart: per node, the running
// jobs until their time limit and the pending jobs where and when the
// backfill scheduler plans to start them; reservations as bands.  Jobs the
// plan has not placed on nodes yet are listed per partition below.
import { h, fill } from "../dom.js";
import { jobId, jobState, num, timeText } from "../format.js";
import { expand } from "../hostlist.js";
import { href } from "../router.js";
import { fetchDoc, store, subscribe } from "../store.js";

const HOURS = [1, 4, 12, 24, 72, 168];

function span(j) {
	const st = num(j.start_time), lim = num(j.time_limit);
	const end = num(j.end_time);
	if (!st || !isFinite(st))
		return null;
	const e = end && isFinite(end) && end > st ? end :
		st + (lim && isFinite(lim) ? lim * 60 : 365 * 86400);
	return [st, e];
}

export function timelineView(el, r) {
	const hours = HOURS.includes(Number(r.params.hours)) ? Number(r.params.hours) : 24;
	const chartEl = h("div", { class: "gantt", id: "gantt" });
	const unplaced = h("div");
	const axis = h("div", { class: "gantt-axis" });
	let alive = true;
	el.append(h("section", null, h("h1", null, "Timeline: running jobs and the backfill plan"),
		h("p", null, "Window: ", HOURS.map((x) => [h("a", {
			href: href("timeline", null, { ...r.params, hours: x }),
			"aria-current": x === hours ? "page" : null,
		}, x < 24 ? `${x}h` : `${x / 24}d`), " "]),
		  r.params.partition ? [" Partition ", h("strong", null, r.params.partition), " (",
			h("a", { href: href("timeline", null, { hours }) }, "all nodes"), ")"] : null,
		  h("span", { class: "legend" }, h("span", { class: "chip bar-run" }, "running"),
		    h("span", { class: "chip bar-plan" }, "planned start"),
		    h("span", { class: "chip bar-resv" }, "reservation"))),
		axis, chartEl, h("h2", null, "Pending jobs not yet placed on nodes"), unplaced));

	async function draw() {
		let nodes, resv;
		try {
			[nodes, resv] = await Promise.all([fetchDoc("nodes"),
				fetchDoc("reservations", 30000).catch(() => ({}))]);
		} catch (e) {
			fill(chartEl, h("p", { class: "error" }, e.message));
			return;
		}
		if (!alive)
			return;
		const t0 = Date.now() / 1000, t1 = t0 + hours * 3600;
		const x = (t) => Math.max(0, Math.min(100, (100 * (t - t0)) / (t1 - t0)));
		const part = r.params.partition;
		const rows = new Map((nodes.nodes || []).filter((n) => !part ||
			(n.partitions || []).includes(part)).map((n) => [n.name, []]));
		const waiting = [];
		for (const j of store.jobs) {
			const s = jobState(j), sp = span(j);
			const running = s === "RUNNING" || s === "COMPLETING" || s === "SUSPENDED";
			if (!running && s !== "PENDING")
				continue;
			const where = running ? j.nodes : j.scheduled_nodes;
			const names = where ? expand(where).filter((n) => rows.has(n)) : [];
			if (!sp || !names.length) {
				if (s === "PENDING")
					waiting.push(j);
				continue;
			}
			for (const n of names)
				rows.get(n).push({ j, sp, kind: running ? "run" : "plan" });
		}
		for (const rv of resv.reservations || []) {
			const st = num(rv.start_time), en = num(rv.end_time);
			for (const n of expand(rv.node_list))
				if (rows.has(n) && st && en)
					rows.get(n).push({ resv: rv, sp: [st, en], kind: "resv" });
		}
		const ticks = [];
		for (let i = 0; i <= 6; i++) {
			const t = t0 + (i * (t1 - t0)) / 6;
			ticks.push(h("span", { style: { left: `${(100 * i) / 6}%` }, title: String(Math.round(t)) },
				timeText(t).slice(5, 16)));
		}
		fill(axis, h("span", { class: "gantt-label" }), h("div", { class: "gantt-ticks" }, ticks));
		fill(chartEl, [...rows].map(([name, bars]) => h("div", { class: "gantt-row" },
			h("a", { class: "gantt-label", href: href("node", name) }, name),
			h("div", { class: "gantt-track" }, bars.filter((b) => b.sp[1] > t0 && b.sp[0] < t1)
				.map((b) => {
					const left = x(b.sp[0]), width = Math.max(0.4, x(b.sp[1]) - left);
					const label = b.resv ? b.resv.name : `${jobId(b.j)} ${b.j.name || ""}`;
					const title = b.resv ? `reservation ${b.resv.name}` :
						`${jobId(b.j)} ${b.j.name} (${b.j.user_name}) ${jobState(b.j)} ` +
						`${timeText(b.sp[0])} → ${timeText(b.sp[1])}`;
					return h(b.j ? "a" : "span", {
						class: `bar bar-${b.kind}`, href: b.j ? href("job", b.j.job_id) : null,
						style: { left: `${left}%`, width: `${width}%` }, title,
					}, label);
				})))));
		const byPart = {};
		for (const j of waiting)
			(byPart[j.partition] = byPart[j.partition] || []).push(j);
		fill(unplaced, Object.keys(byPart).length ? h("ul", null, Object.entries(byPart).map(
			([p, js]) => h("li", null, `${p}: ${js.length} job(s)`, " — ",
				js.slice(0, 20).map((j) => [h("a", { href: href("job", j.job_id) }, jobId(j)),
					num(j.start_time) ? ` (start ${timeText(num(j.start_time))})` : "", " "]),
				js.length > 20 ? "…" : ""))) : h("p", null, "None."));
	}
	draw();
	const unsub = subscribe(draw);
	return () => {
		alive = false;
		unsub();
	};
}
