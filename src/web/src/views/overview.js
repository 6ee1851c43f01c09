// overview.js — the cluster at a glance: nodes by state, CPUs and memory
// allocated, partitions with their limits, running/pending per partition,
// and the controller's health from diag.
import { h, fill } from "../dom.js";
import { chart, STATE_COLORS } from "../charts.js";
import { jobState, mb, minutes, nodeBucket, num } from "../format.js";
import { href } from "../router.js";
import { fetchDoc, store, subscribe } from "../store.js";

function meter(label, used, total, fmt = String) {
	const pct = total ? Math.round((100 * used) / total) : 0;
	return h("div", { class: "meter", "data-meter": label },
		h("div", { class: "meter-label" }, `${label}: ${fmt(used)} / ${fmt(total)} (${pct}%)`),
		h("div", { class: "meter-bar", role: "progressbar", "aria-valuenow": pct,
			"aria-valuemin": 0, "aria-valuemax": 100, "aria-label": label },
		  h("div", { class: "meter-fill", style: { width: pct + "%" } })));
}

function gpus(gres) {
	let n = 0;
	for (const m of String(gres || "").matchAll(/gpu(?::[^:,(]+)?:(\d+)/g))
		n += parseInt(m[1], 10);
	return n;
}

function stat(label, value, id) {
	return h("div", { class: "stat", id }, h("div", { class: "stat-v" }, String(value)),
		h("div", { class: "stat-l" }, label));
}

export function overviewView(el) {
	const top = h("div", { class: "stats" });
	const meters = h("div", { class: "meters" });
	const nodeCanvas = h("canvas", { id: "nodes-chart", "aria-label": "Nodes by state", role: "img" });
	const partCanvas = h("canvas", { id: "parts-chart", "aria-label": "Jobs per partition", role: "img" });
	const parts = h("div");
	const health = h("div", { id: "health" });
	const err = h("p", { class: "error" });
	let nodeChart = null, partChart = null, alive = true;

	el.append(h("section", { class: "overview" },
		h("h1", null, "Cluster overview"), err, top, meters,
		h("div", { class: "grid2" },
		  h("figure", null, h("figcaption", null, "Nodes by state"),
		    h("div", { class: "chartbox" }, nodeCanvas)),
		  h("figure", null, h("figcaption", null, "Running and pending jobs per partition"),
		    h("div", { class: "chartbox" }, partCanvas))),
		h("h2", null, "Partitions"), parts,
		h("h2", null, "Controller health"), health));

	async function draw() {
		let nodes, partsDoc, diag;
		try {
			[nodes, partsDoc] = await Promise.all([fetchDoc("nodes"), fetchDoc("partitions", 30000)]);
			diag = await fetchDoc("diag").catch((e) => ({ error: e.message }));
		} catch (e) {
			err.textContent = e.message;
			return;
		}
		if (!alive)
			return;
		err.textContent = "";
		const ns = nodes.nodes || [];
		const byState = {};
		let cpus = 0, acpus = 0, mem = 0, amem = 0, g = 0, ag = 0;
		for (const n of ns) {
			const b = nodeBucket(n);
			byState[b] = (byState[b] || 0) + 1;
			cpus += num(n.cpus) || 0;
			acpus += num(n.alloc_cpus) || 0;
			mem += num(n.real_memory) || 0;
			amem += num(n.alloc_memory) || 0;
			g += gpus(n.gres);
			ag += gpus(n.gres_used);
		}
		const jobs = store.jobs;
		const count = (s) => jobs.filter((j) => jobState(j) === s).length;
		fill(top,
			stat("nodes", ns.length, "stat-nodes"),
			stat("running jobs", count("RUNNING"), "stat-running"),
			stat("pending jobs", count("PENDING"), "stat-pending"),
			stat("idle nodes", byState.idle || 0, "stat-idle"),
			stat("drained/down", (byState.drained || 0) + (byState.draining || 0) + (byState.down || 0),
			     "stat-down"));
		fill(meters, meter("CPUs allocated", acpus, cpus),
			meter("Memory allocated", amem, mem, mb),
			g ? meter("GPUs allocated", ag, g) : null);

		const labels = Object.keys(byState).sort();
		const data = {
			labels,
			datasets: [{ data: labels.map((l) => byState[l]),
				backgroundColor: labels.map((l) => STATE_COLORS[l] || STATE_COLORS.unknown) }],
		};
		if (nodeChart) {
			nodeChart.data = data;
			nodeChart.update();
		} else {
			nodeChart = chart(nodeCanvas, { type: "doughnut", data,
				options: { maintainAspectRatio: false, plugins: { legend: { position: "right" } } } });
		}

		const pl = (partsDoc.partitions || []).map((p) => p.name);
		const per = (s) => pl.map((p) => jobs.filter((j) => jobState(j) === s &&
			String(j.partition).split(",").includes(p)).length);
		const pdata = {
			labels: pl,
			datasets: [
				{ label: "running", data: per("RUNNING"), backgroundColor: STATE_COLORS.running },
				{ label: "pending", data: per("PENDING"), backgroundColor: STATE_COLORS.pending },
			],
		};
		if (partChart) {
			partChart.data = pdata;
			partChart.update();
		} else {
			partChart = chart(partCanvas, { type: "bar", data: pdata,
				options: { maintainAspectRatio: false, scales: { x: { stacked: true },
					y: { stacked: true, beginAtZero: true, ticks: { precision: 0 } } } } });
		}

		fill(parts, h("table", { class: "tbl", id: "partitions" },
			h("thead", null, h("tr", null, ["Partition", "State", "Nodes", "CPUs",
				"Default time", "Max time", "Max nodes", "Running", "Pending", "Plan"]
				.map((t) => h("th", { scope: "col" }, t)))),
			h("tbody", null, (partsDoc.partitions || []).map((p, i) => h("tr", null,
				h("td", null, h("a", { href: href("jobs", null, { partition: p.name }) }, p.name),
				  p.partition && (p.partition.state || []).includes?.("DEFAULT") ? "*" : ""),
				h("td", null, ((p.partition && p.partition.state) || []).join(",")),
				h("td", null, String(num(p.nodes && p.nodes.total) ?? "")),
				h("td", null, String(num(p.cpus && p.cpus.total) ?? "")),
				h("td", null, minutes(p.defaults && p.defaults.time)),
				h("td", null, minutes(p.maximums && p.maximums.time)),
				h("td", null, String(num(p.maximums && p.maximums.nodes) ?? "")
					.replace("Infinity", "UNLIMITED")),
				h("td", null, String(per("RUNNING")[i])),
				h("td", null, String(per("PENDING")[i])),
				h("td", null, h("a", { href: href("timeline", null, { partition: p.name }) },
				  "timeline")))))));

		const st = diag.statistics || {};
		const n = (k) => num(st[k]);
		const us = (v) => (v === null || v === undefined ? "" : `${(v / 1000).toFixed(1)} ms`);
		const rpcs = (st.rpcs_by_message_type || []).slice()
			.sort((a, b) => (num(b.count) || 0) - (num(a.count) || 0)).slice(0, 8);
		fill(health, diag.error ? h("p", { class: "error" }, `diag: ${diag.error}`) :
			h("div", null,
			  h("dl", { class: "fields" },
				[["Server threads", n("server_thread_count")],
				 ["Agent queue", n("agent_queue_size")],
				 ["Jobs submitted / started / completed",
				  `${n("jobs_submitted")} / ${n("jobs_started")} / ${n("jobs_completed")}`],
				 ["Main scheduler cycle (last / mean)",
				  `${us(n("schedule_cycle_last"))} / ${us(n("schedule_cycle_mean"))}`],
				 ["Backfill cycle (last / mean)",
				  `${us(n("bf_cycle_last"))} / ${us(n("bf_cycle_mean"))}`],
				 ["Backfilled jobs", n("bf_backfilled_jobs")],
				 ["Data since", new Date((n("req_time_start") || 0) * 1000).toLocaleString()]]
				.map(([k, v]) => [h("dt", null, k), h("dd", null, String(v ?? ""))])),
			  rpcs.length ? h("table", { class: "tbl", id: "rpcs" },
				h("thead", null, h("tr", null, ["RPC", "Count", "Average time"]
					.map((t) => h("th", { scope: "col" }, t)))),
				h("tbody", null, rpcs.map((r) => h("tr", null,
					h("td", null, r.message_type), h("td", null, String(num(r.count))),
					h("td", null, us(num(r.average_time))))))) : null));
	}

	draw();
	const t = setInterval(() => !document.hidden && draw(), 10000);
	let last = 0;
	const unsub = subscribe(() => {         // job counts: at most every 2 s
		if (Date.now() - last > 2000) {
			last = Date.now();
			draw();
		}
	});
	return () => {
		alive = false;
		clearInterval(t);
		unsub();
		nodeChart && nodeChart.destroy();
		partChart && partChart.destroy();
	};
}
