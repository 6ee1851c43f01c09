// jobs.js — the job list: squeue's filters, sortable columns, virtualised.
import { sessionUser } from "../api.js";
import { h, fill } from "../dom.js";
import { duration, jobId, jobState, minutes, num, reasonText, stateClass, timeText }
	from "../format.js";
import { go, setParams } from "../router.js";
import { store, subscribe } from "../store.js";
import { vlist } from "../vlist.js";

// squeue's short state names, accepted in the state filter too
const SHORT = {
	PD: "PENDING", R: "RUNNING", CG: "COMPLETING", CD: "COMPLETED",
	CA: "CANCELLED", F: "FAILED", TO: "TIMEOUT", NF: "NODE_FAIL",
	PR: "PREEMPTED", S: "SUSPENDED", OOM: "OUT_OF_MEMORY", BF: "BOOT_FAIL",
	DL: "DEADLINE", RQ: "REQUEUED", CF: "CONFIGURING",
};

const now = () => Date.now() / 1000;
const collator = new Intl.Collator(undefined, { numeric: true });

function elapsed(j) {
	const st = num(j.start_time), en = num(j.end_time);
	const s = jobState(j);
	if (!st || s === "PENDING")
		return null;
	const end = s === "RUNNING" || s === "COMPLETING" || !en ? now() : en;
	return Math.max(0, end - st);
}

// [key, title, value for sorting, cell text]
const COLS = [
	["id", "JobID", (j) => j.job_id, (j) => jobId(j)],
	["partition", "Partition", (j) => j.partition || "", (j) => j.partition],
	["name", "Name", (j) => j.name || "", (j) => j.name],
	["user", "User", (j) => j.user_name || "", (j) => j.user_name],
	["account", "Account", (j) => j.account || "", (j) => j.account],
	["state", "State", (j) => jobState(j), (j) => jobState(j)],
	["time", "Time", (j) => elapsed(j) ?? -1, (j) => duration(elapsed(j), true)],
	["limit", "Limit", (j) => num(j.time_limit) ?? 0, (j) => minutes(j.time_limit)],
	["start", "Start", (j) => num(j.start_time) || 0,
	 (j) => timeText(num(j.start_time)).slice(5, 16)],
	["nodes", "Nodes", (j) => num(j.node_count) ?? 0, (j) => num(j.node_count)],
	["where", "NodeList (Reason)", (j) => whereText(j), (j) => whereText(j)],
];

function whereText(j) {
	if (jobState(j) === "PENDING")
		return j.state_reason && j.state_reason !== "None" ? `(${j.state_reason})` : "";
	return j.nodes || "";
}

const FILTERS = [
	["user", "User"], ["account", "Account"], ["partition", "Partition"],
	["state", "State"], ["name", "Name"],
];

function csv(v) {
	return (v || "").split(",").map((s) => s.trim()).filter(Boolean);
}

export function matcher(p, me) {
	const users = csv(p.user), accts = csv(p.account), parts = csv(p.partition);
	const names = csv(p.name);
	const states = csv(p.state).map((s) => SHORT[s.toUpperCase()] || s.toUpperCase());
	if (p.me && me)
		users.push(me);
	return (j) =>
		(!users.length || users.includes(j.user_name)) &&
		(!accts.length || accts.includes(j.account)) &&
		(!parts.length || csv(j.partition).some((x) => parts.includes(x))) &&
		(!names.length || names.includes(j.name)) &&
		(!states.length || states.includes("ALL") || states.includes(jobState(j)));
}

export function jobsView(el, r) {
	const p = { ...r.params };
	const me = sessionUser();
	const count = h("p", { class: "count", id: "job-count", role: "status" });
	const head = h("div", { class: "vl-head jobs-cols", role: "row" });
	const list = vlist({
		label: "Jobs",
		onOpen: (j) => go("job", j.job_id),
		rowEl: (j) => h("div", { class: "vl-row jobs-cols", dataset: { job: j.job_id } },
			COLS.map(([k, , , text]) => h("span", {
				class: k === "state" ? stateClass(jobState(j)) : "c-" + k,
				role: "gridcell",
				title: k === "where" && jobState(j) === "PENDING" ?
					reasonText(j.state_reason) :
					k === "start" && num(j.start_time) ?
					`${timeText(num(j.start_time))} (${num(j.start_time)})` : null,
			}, text(j)))),
	});

	function drawHead() {
		const [key, desc] = (p.sort || "-id").startsWith("-") ?
			[(p.sort || "-id").slice(1), true] : [p.sort, false];
		fill(head, COLS.map(([k, title]) => h("span", {
			role: "columnheader",
			"aria-sort": k === key ? (desc ? "descending" : "ascending") : "none",
		}, h("button", {
			type: "button", class: "sort", "data-col": k,
			onclick: () => {
				p.sort = k === key && !desc ? "-" + k : k;
				setParams(p);
				drawHead();
				draw();
			},
		}, title, k === key ? (desc ? " ▼" : " ▲") : ""))));
	}

	function draw() {
		const match = matcher(p, me);
		const jobs = store.jobs.filter(match);
		const sort = p.sort || "-id";
		const desc = sort.startsWith("-");
		const col = COLS.find((c) => c[0] === (desc ? sort.slice(1) : sort)) || COLS[0];
		const key = col[2];
		jobs.sort((a, b) => {
			const x = key(a), y = key(b);
			const c = typeof x === "number" && typeof y === "number" ? x - y :
				collator.compare(String(x), String(y));
			return desc ? -c : c;
		});
		const by = {};
		for (const j of jobs)
			by[jobState(j)] = (by[jobState(j)] || 0) + 1;
		fill(count, store.jobsLoaded ?
			`${jobs.length} of ${store.jobs.length} jobs` +
			(Object.keys(by).length ? ": " + Object.entries(by).map(
				([s, n]) => `${n} ${s.toLowerCase()}`).join(", ") : "") :
			"Loading jobs…");
		list.set(jobs);
	}

	const inputs = FILTERS.map(([k, label]) => h("label", null, label + " ",
		h("input", {
			type: "search", name: k, value: p[k] || "", size: k === "state" ? 18 : 10,
			list: k === "state" ? "states" : null,
			placeholder: k === "state" ? "PENDING,RUNNING" : "",
			oninput: (ev) => {
				p[k] = ev.target.value;
				setParams(p);
				draw();
			},
		})));
	const states = h("datalist", { id: "states" }, Object.values(SHORT).map(
		(s) => h("option", { value: s })));
	const meBox = h("label", null, h("input", {
		type: "checkbox", name: "me", checked: !!p.me,
		onchange: (ev) => {
			p.me = ev.target.checked ? "1" : "";
			setParams(p);
			draw();
		},
	}), ` Only mine${me ? ` (${me})` : ""}`);

	el.append(h("section", { class: "jobs" },
		h("h1", null, "Jobs"),
		h("form", { class: "filters", role: "search", onsubmit: (e) => e.preventDefault() },
		  inputs, meBox, states),
		count, h("div", { class: "table" }, head, list.el)));
	drawHead();
	draw();
	return subscribe(draw);
}
