// nodes.js — the node grid (one tile per node, coloured by state) and one
// node's detail with the jobs on it; operators may drain and resume it (the
// controller refuses anyone else).
import { post } from "../api.js";
import { h, fill } from "../dom.js";
import { STATE_COLORS } from "../charts.js";
import { jobId, jobState, list, mb, nodeBucket, nodeState, num, timeEl } from "../format.js";
import { expand } from "../hostlist.js";
import { href, setParams } from "../router.js";
import { fetchDoc, forget, store } from "../store.js";

export function nodesView(el, r) {
	const p = { ...r.params };
	const grid = h("div", { class: "node-grid", id: "node-grid", role: "list" });
	const legend = h("div", { class: "legend" });
	const err = h("p", { class: "error" });
	const filter = h("input", { type: "search", name: "state", value: p.state || "",
		placeholder: "idle, drained…", oninput: (e) => {
			p.state = e.target.value;
			setParams(p);
			draw();
		} });
	let alive = true;
	el.append(h("section", null, h("h1", null, "Nodes"),
		h("label", null, "State ", filter), legend, err, grid));

	async function draw() {
		let doc;
		try {
			doc = await fetchDoc("nodes");
		} catch (e) {
			err.textContent = e.message;
			return;
		}
		if (!alive)
			return;
		const want = (p.state || "").toLowerCase().split(",").map((s) => s.trim()).filter(Boolean);
		const ns = (doc.nodes || []).filter((n) => !want.length ||
			want.includes(nodeBucket(n)) || want.some((w) => nodeState(n).toLowerCase().includes(w)));
		const counts = {};
		for (const n of doc.nodes || [])
			counts[nodeBucket(n)] = (counts[nodeBucket(n)] || 0) + 1;
		fill(legend, Object.entries(counts).sort().map(([b, c]) =>
			h("span", { class: "chip" }, h("i", { style: { background: STATE_COLORS[b] || STATE_COLORS.unknown } }),
			  `${b} ${c}`)));
		fill(grid, ns.map((n) => {
			const b = nodeBucket(n);
			const cpus = num(n.cpus) || 0, alloc = num(n.alloc_cpus) || 0;
			return h("a", {
				class: "node-tile", role: "listitem", href: href("node", n.name),
				"data-node": n.name, "data-state": b,
				style: { borderColor: STATE_COLORS[b] || STATE_COLORS.unknown },
				title: `${n.name}: ${nodeState(n)}${n.reason ? ` (${n.reason})` : ""}`,
			}, h("span", { class: "nn" }, n.name),
			   h("span", { class: "ns", style: { color: STATE_COLORS[b] } }, b),
			   h("span", { class: "nc" }, `${alloc}/${cpus} CPUs`));
		}));
	}
	draw();
	const t = setInterval(() => !document.hidden && draw(), 10000);
	return () => {
		alive = false;
		clearInterval(t);
	};
}

const NODE_FIELDS = [
	["NodeName", (n) => n.name], ["State", nodeState],
	["Reason", (n) => n.reason ? `${n.reason} [${n.reason_set_by_user || ""}]` : ""],
	["ReasonTime", (n) => timeEl(n.reason_changed_at)],
	["Partitions", (n) => list(n.partitions)],
	["CPUTot", (n) => num(n.cpus)], ["CPUAlloc", (n) => num(n.alloc_cpus)],
	["CPULoad", (n) => { const l = num(n.cpu_load); return l === null ? "" : (l / 100).toFixed(2); }],
	["Sockets", (n) => num(n.sockets)], ["CoresPerSocket", (n) => num(n.cores)],
	["ThreadsPerCore", (n) => num(n.threads)],
	["RealMemory", (n) => mb(n.real_memory)], ["AllocMem", (n) => mb(n.alloc_memory)],
	["FreeMem", (n) => mb(n.free_mem)],
	["Features", (n) => list(n.features)], ["ActiveFeatures", (n) => list(n.active_features)],
	["Gres", (n) => list(n.gres)], ["GresUsed", (n) => list(n.gres_used)],
	["CfgTRES", (n) => list(n.tres)], ["AllocTRES", (n) => list(n.tres_used)],
	["NodeAddr", (n) => n.address], ["NodeHostName", (n) => n.hostname],
	["BootTime", (n) => timeEl(n.boot_time)], ["LastBusyTime", (n) => timeEl(n.last_busy)],
	["SlurmdStartTime", (n) => timeEl(n.slurmd_start_time)],
	["Version", (n) => n.version],
];

export function nodeView(el, r) {
	const name = r.arg;
	const body = h("div");
	const msg = h("p", { class: "msg", role: "status", id: "node-msg" });
	const reason = h("input", { type: "text", id: "drain-reason", name: "reason",
		placeholder: "Reason (required to drain)", size: 40 });
	let alive = true;

	async function act(label, b) {
		msg.className = "msg";
		msg.textContent = `${label}…`;
		try {
			await post(`node/${encodeURIComponent(name)}`, b);
			msg.textContent = `${label}: done.`;
			forget("nodes");
			forget(`node/${name}`);
			draw();
		} catch (e) {
			msg.className = "msg error";
			msg.textContent = `${label} refused: ${e.message}`;
		}
	}

	const controls = h("form", { class: "actions", id: "node-actions", onsubmit: (e) => {
		e.preventDefault();
		if (!reason.value.trim()) {
			msg.className = "msg error";
			msg.textContent = "Give a reason to drain.";
			return;
		}
		act("Drain", { state: ["DRAIN"], reason: reason.value.trim() });
	} }, reason, h("button", { type: "submit", id: "drain" }, "Drain"),
		h("button", { type: "button", id: "resume",
			onclick: () => act("Resume", { state: ["RESUME"] }) }, "Resume"),
		h("small", null, " (operators only; the controller checks)"));

	async function draw() {
		let n;
		try {
			n = ((await fetchDoc(`node/${encodeURIComponent(name)}`, 5000)).nodes || [])[0];
			if (!n)
				throw new Error(`no node ${name}`);
		} catch (e) {
			if (alive)
				fill(body, h("h1", null, name), h("p", { class: "error" }, e.message));
			return;
		}
		if (!alive)
			return;
		const jobs = store.jobs.filter((j) => ["RUNNING", "COMPLETING", "SUSPENDED"]
			.includes(jobState(j)) && expand(j.nodes).includes(name));
		fill(body, h("h1", null, `Node ${n.name} `,
			h("span", { class: "st st-" + nodeBucket(n), id: "node-state" }, nodeState(n))),
			h("dl", { class: "fields cols", id: "node-fields" }, NODE_FIELDS.map(([k, f]) =>
				h("div", null, h("dt", null, k), h("dd", null, f(n) ?? "")))),
			h("h2", null, `Jobs on ${n.name}`),
			jobs.length ? h("ul", { id: "node-jobs" }, jobs.map((j) => h("li", null,
				h("a", { href: href("job", j.job_id) }, jobId(j)), ` ${j.name} (${j.user_name})`))) :
				h("p", null, "None."));
	}

	el.append(h("section", null, body, h("h2", null, "Operator actions"), controls, msg));
	draw();
	const t = setInterval(() => !document.hidden && draw(), 5000);
	return () => {
		alive = false;
		clearInterval(t);
	};
}
