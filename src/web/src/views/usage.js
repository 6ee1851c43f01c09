// usage.js — what was used, from the accounting database (slurmdbd through
// /slurmdb/): CPU-hours per day by account or by user over the last days,
// as sreport's AccountUtilizationByUser would add them up, and the jobs'
// totals.  A job's CPU time is counted on the day it started.
import { get } from "../api.js";
import { h, fill } from "../dom.js";
import { chart } from "../charts.js";
import { num } from "../format.js";
import { href } from "../router.js";

const PALETTE = ["#3182ce", "#dd6b20", "#38a169", "#805ad5", "#d69e2e",
	"#e53e3e", "#319795", "#b83280", "#718096", "#2c5282"];

function cpus(j) {
	for (const t of (j.tres && j.tres.allocated) || [])
		if (t.type === "cpu")
			return num(t.count) || 0;
	return num(j.required && j.required.CPUs) || 0;
}

const day = (t) => {
	const d = new Date(t * 1000);
	return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-` +
		String(d.getDate()).padStart(2, "0");
};

export function usageView(el, r) {
	const days = [1, 7, 30].includes(Number(r.params.days)) ? Number(r.params.days) : 7;
	const by = r.params.by === "user" ? "user" : "account";
	const canvas = h("canvas", { id: "usage-chart", role: "img",
		"aria-label": `CPU-hours per day by ${by}` });
	const table = h("div", { id: "usage" }, "Loading…");
	let c = null;
	el.append(h("section", null, h("h1", null, "Usage"),
		h("p", null, "Last ", [1, 7, 30].map((d) => [h("a", {
			href: href("usage", null, { days: d, by }),
			"aria-current": d === days ? "page" : null }, `${d}d`), " "]),
		  " · by ", ["account", "user"].map((b) => [h("a", {
			href: href("usage", null, { days, by: b }),
			"aria-current": b === by ? "page" : null }, b), " "])),
		h("figure", null, h("figcaption", null, `CPU-hours per day by ${by}`),
		  h("div", { class: "chartbox" }, canvas)),
		table));

	const now = Math.floor(Date.now() / 1000), t0 = now - days * 86400;
	get(`/slurmdb/v0.0.43/jobs?start_time=${t0}&end_time=${now}`).then((d) => {
		const jobs = d.jobs || [];
		const hours = {}, totals = {}, labels = new Set();
		for (const j of jobs) {
			const st = num(j.time && j.time.start), el2 = num(j.time && j.time.elapsed) || 0;
			if (!st)
				continue;
			const who = (by === "user" ? j.user : j.account) || "(none)";
			const dd = day(st), ch = (el2 * cpus(j)) / 3600;
			labels.add(dd);
			hours[who] = hours[who] || {};
			hours[who][dd] = (hours[who][dd] || 0) + ch;
			const t = totals[who] = totals[who] || { jobs: 0, ch: 0, failed: 0 };
			t.jobs++;
			t.ch += ch;
			if (!((j.state && j.state.current) || []).includes("COMPLETED"))
				t.failed++;
		}
		const xs = [...labels].sort();
		const names = Object.keys(hours).sort();
		const data = {
			labels: xs,
			datasets: names.map((n, i) => ({
				label: n, backgroundColor: PALETTE[i % PALETTE.length],
				data: xs.map((x) => +(hours[n][x] || 0).toFixed(3)),
			})),
		};
		c = chart(canvas, { type: "bar", data, options: { maintainAspectRatio: false,
			scales: { x: { stacked: true }, y: { stacked: true, beginAtZero: true,
				title: { display: true, text: "CPU-hours" } } } } });
		fill(table, names.length ? h("table", { class: "tbl", id: "usage-table" },
			h("thead", null, h("tr", null, [by === "user" ? "User" : "Account", "Jobs",
				"CPU-hours", "Not completed"].map((t) => h("th", { scope: "col" }, t)))),
			h("tbody", null, names.map((n) => h("tr", null, h("td", null, n),
				h("td", null, String(totals[n].jobs)),
				h("td", null, totals[n].ch.toFixed(2)),
				h("td", null, String(totals[n].failed)))))) :
			h("p", null, "No jobs in the accounting database for this period."));
	}).catch((e) => fill(table, h("p", { class: "error" },
		e.status === 404 ? "No accounting here (slurmrestd does not serve /slurmdb/)." :
			e.message)));
	return () => c && c.destroy();
}
