// job.js — one job as `scontrol show job` shows it, why it waits, when it
// is planned to start, the actions its owner (or an operator) may take,
// and the tail of its output; the controller decides whether each is
// allowed (the output: its user and operators only).
import { call, get, post } from "../api.js";
import { h, fill } from "../dom.js";
import { duration, jobId, jobState, list, mb, minutes, num, reasonText,
	stateClass, timeEl } from "../format.js";
import { href } from "../router.js";
import { chart } from "../charts.js";
import { CPU, RSS_MB, profileSeries } from "../profile.js";
import { pollJobs, POLL_MS } from "../store.js";

const T = (k) => (j) => timeEl(j[k]);
// states in which a job's output may still grow
const RUNS = ["RUNNING", "COMPLETING", "SUSPENDED", "CONFIGURING"];
// the tail the page shows (the API gives at most 64 KiB)
const OUTPUT_BYTES = 16384;
const S = (k) => (j) => list(j[k]);
const N = (k) => (j) => { const v = num(j[k]); return v === null ? "" : String(v); };

// scontrol show job's fields, in its order
const FIELDS = [
	["JobId", (j) => String(j.job_id)],
	["ArrayJobId", N("array_job_id")],
	["ArrayTaskId", (j) => num(j.array_task_id) ?? j.array_task_string ?? ""],
	["JobName", S("name")],
	["UserId", (j) => `${j.user_name}(${num(j.user_id)})`],
	["GroupId", (j) => `${j.group_name}(${num(j.group_id)})`],
	["Priority", N("priority")],
	["Nice", N("nice")],
	["Account", S("account")],
	["QOS", S("qos")],
	["JobState", (j) => list(j.job_state)],
	["Reason", S("state_reason")],
	["Dependency", S("dependency")],
	["Requeue", (j) => (j.requeue ? "1" : "0")],
	["Restarts", N("restart_cnt")],
	["BatchFlag", (j) => (j.batch_flag ? "1" : "0")],
	["ExitCode", (j) => exitCode(j.exit_code)],
	["DerivedExitCode", (j) => exitCode(j.derived_exit_code)],
	["RunTime", (j) => runTime(j)],
	["TimeLimit", (j) => minutes(j.time_limit)],
	["TimeMin", (j) => minutes(j.time_minimum)],
	["SubmitTime", T("submit_time")],
	["EligibleTime", T("eligible_time")],
	["AccrueTime", T("accrue_time")],
	["StartTime", T("start_time")],
	["EndTime", T("end_time")],
	["Deadline", T("deadline")],
	["SuspendTime", T("suspend_time")],
	["LastSchedEval", T("last_sched_evaluation")],
	["Partition", S("partition")],
	["AllocNode", S("allocating_node")],
	["ReqNodeList", S("required_nodes")],
	["ExcNodeList", S("excluded_nodes")],
	["NodeList", S("nodes")],
	["SchedNodeList", S("scheduled_nodes")],
	["BatchHost", S("batch_host")],
	["NumNodes", N("node_count")],
	["NumCPUs", N("cpus")],
	["NumTasks", N("tasks")],
	["CPUs/Task", N("cpus_per_task")],
	["TRES", S("tres_alloc_str")],
	["ReqTRES", S("tres_req_str")],
	["MinCPUsNode", N("minimum_cpus_per_node")],
	["MinMemoryNode", (j) => mb(j.memory_per_node)],
	["MinMemoryCPU", (j) => mb(j.memory_per_cpu)],
	["MinTmpDiskNode", (j) => mb(j.minimum_tmp_disk_per_node)],
	["Features", S("features")],
	["Reservation", S("resv_name")],
	["OverSubscribe", S("shared")],
	["Contiguous", (j) => (j.contiguous ? "1" : "0")],
	["Licenses", S("licenses")],
	["Command", S("command")],
	["WorkDir", S("current_working_directory")],
	["Comment", S("comment")],
	["StdErr", (j) => j.stderr_expanded || list(j.standard_error)],
	["StdIn", (j) => j.stdin_expanded || list(j.standard_input)],
	["StdOut", (j) => j.stdout_expanded || list(j.standard_output)],
];

function exitCode(e) {
	if (!e || typeof e !== "object")
		return e === undefined ? "" : String(e);
	const rc = num(e.return_code) ?? 0;
	const sig = num(e.signal && e.signal.id) ?? 0;
	return `${rc}:${sig}`;
}

function runTime(j) {
	const st = num(j.start_time), en = num(j.end_time), s = jobState(j);
	if (!st || s === "PENDING")
		return "00:00:00";
	const end = s === "RUNNING" || s === "COMPLETING" || !en ? Date.now() / 1000 : en;
	return duration(end - st);
}

// A REST value as text for the "all fields" table.
function raw(v) {
	if (v === null || v === undefined)
		return "";
	if (typeof v !== "object")
		return String(v);
	if (!Array.isArray(v) && ("set" in v || "infinite" in v)) {
		const n = num(v);
		return n === null ? "" : n === Infinity ? "INFINITE" : String(n);
	}
	return JSON.stringify(v);
}

function plannedStart(j) {
	const st = num(j.start_time);
	if (jobState(j) !== "PENDING")
		return null;
	if (!st || st === Infinity)
		return h("p", { class: "planned", id: "planned-start" },
			"No start time planned yet (the backfill scheduler has not placed it).");
	return h("p", { class: "planned", id: "planned-start" },
		"Planned start: ", timeEl(st), " (from the backfill plan; may move)");
}

export function jobView(el, r) {
	const id = r.arg;
	const msg = h("p", { class: "msg", role: "status", id: "action-msg" });
	const body = h("div");
	let timer = null, alive = true;

	async function act(label, f) {
		msg.className = "msg";
		msg.textContent = `${label}…`;
		try {
			await f();
			msg.textContent = `${label}: done.`;
			await load();
			pollJobs(true);
		} catch (e) {
			msg.className = "msg error";
			msg.textContent = `${label} refused: ${e.message}`;
		}
	}

	function actions(j) {
		const s = jobState(j);
		const live = ["PENDING", "RUNNING", "SUSPENDED", "CONFIGURING", "REQUEUED"].includes(s);
		const held = j.hold || /^JobHeld/.test(j.state_reason || "") ||
			num(j.priority) === 0;
		return h("div", { class: "actions" },
			live && h("button", {
				type: "button", id: "cancel", class: "danger",
				// a second click confirms
				onclick: (ev) => {
					const b = ev.currentTarget;
					if (b.dataset.armed) {
						act("Cancel", () => call("DELETE", `job/${id}`));
						return;
					}
					b.dataset.armed = "1";
					b.textContent = `Really cancel ${jobId(j)}?`;
				},
			}, "Cancel"),
			s === "PENDING" && !held && h("button", {
				type: "button", id: "hold",
				onclick: () => act("Hold", () => post(`job/${id}`, { hold: true })),
			}, "Hold"),
			s === "PENDING" && held && h("button", {
				type: "button", id: "release",
				onclick: () => act("Release", () => post(`job/${id}`, { hold: false })),
			}, "Release"),
			// scontrol requeue: Sluice's endpoint (Slurm's API has none);
			// the controller says whether it may (batch jobs, JobRequeue)
			j.batch_flag && s !== "PENDING" && s !== "REQUEUED" && h("button", {
				type: "button", id: "requeue",
				onclick: () => act("Requeue", () =>
					post(`/sluice/v1/job/${encodeURIComponent(id)}/requeue`, {})),
			}, "Requeue"));
	}

	function draw(j) {
		const s = jobState(j);
		const reason = s === "PENDING" || s === "REQUEUED" ? reasonText(j.state_reason) : "";
		fill(body,
			h("h1", null, `Job ${jobId(j)} `, h("span", { class: "jobname" }, j.name || "")),
			h("p", null, h("span", { class: stateClass(s), id: "job-state" }, s),
			  " ", j.state_reason && j.state_reason !== "None" ?
				h("span", { id: "job-reason" }, `(${j.state_reason})`) : null),
			reason && h("p", { class: "reason", id: "reason-text" }, reason),
			plannedStart(j),
			actions(j),
			msg,
			h("h2", null, "Details"),
			h("dl", { class: "fields cols", id: "job-fields" }, FIELDS.map(([k, f]) =>
				h("div", null, h("dt", null, k), h("dd", { "data-field": k }, f(j))))),
			output,
			h("details", null, h("summary", null, "Every field the API returns"),
			  h("dl", { class: "fields raw" }, Object.keys(j).sort().map((k) =>
				[h("dt", null, k), h("dd", null, raw(j[k]))]))),
			acct,
			prof);
	}

	// A profiled job's usage samples (--profile=task, kept by slurmdbd:
	// GET /sluice/v1/job/{id}/profile, its user and operators only):
	// CPU and memory over time, a line per step and node.
	const prof = h("div", { id: "profile" });
	let profCharts = [], profSeen = "";
	function lineChart(canvas, rows, value, title) {
		const { series } = profileSeries(rows, value);
		return chart(canvas, {
			type: "line",
			data: { datasets: series.map((s) => ({
				label: s.label, data: s.points, pointRadius: 2,
				borderWidth: 2, tension: 0,
			})) },
			options: {
				parsing: false, responsive: true, maintainAspectRatio: false,
				scales: {
					x: { type: "linear", title: { display: true,
						text: "seconds since the first sample" } },
					y: { beginAtZero: true, title: { display: true, text: title } },
				},
			},
		});
	}
	async function loadProfile() {
		let rows;
		try {
			const d = await call("GET", `/sluice/v1/job/${encodeURIComponent(id)}/profile`);
			rows = (d && d.profile) || [];
		} catch {
			return;         /* not profiled here, or not allowed */
		}
		const key = JSON.stringify(rows);
		if (!alive || !rows.length || key === profSeen)
			return;
		profSeen = key;
		profCharts.forEach((c) => c.destroy());
		const cpu = h("canvas", { id: "profile-cpu" });
		const mem = h("canvas", { id: "profile-mem" });
		fill(prof, h("h2", null, "Profile"),
			h("p", { class: "note", id: "profile-info" },
			  `${rows.length} samples (sacct -j ${id} --profile)`),
			h("div", { class: "chartbox" }, cpu),
			h("div", { class: "chartbox" }, mem));
		profCharts = [lineChart(cpu, rows, CPU, "CPU (% of one CPU)"),
			lineChart(mem, rows, RSS_MB, "memory (RSS, MiB)")];
	}

	// The tail of its StdOut or StdErr (GET /sluice/v1/job/{id}/output:
	// the controller has the batch host read it as the job's user), as
	// text in a <pre>; while the job runs it is read again at each poll.
	const output = h("div", { id: "output" });
	const outPre = h("pre", { class: "script output", id: "job-output" });
	const outInfo = h("p", { class: "note", id: "job-output-info" });
	let stream = "stdout", outFor = "", outBusy = false;

	function streamButton(name) {
		return h("button", {
			type: "button", id: `output-${name}`, "aria-pressed": String(stream === name),
			onclick: () => {
				stream = name;
				outFor = "";
				if (cur)
					loadOutput(cur);
			},
		}, name);
	}

	function drawOutput(...what) {
		fill(output, h("h2", null, "Output"),
			h("div", { class: "actions" }, streamButton("stdout"), streamButton("stderr")),
			...what);
	}

	async function loadOutput(j) {
		const s = jobState(j);
		if (outBusy)
			return;
		outFor = `${s}/${stream}`;
		if (s === "PENDING" || !j.batch_flag) {
			drawOutput(h("p", { class: "note", id: "job-output-none" },
				"Output not available: " + (s === "PENDING" ?
				"the job has not started." :
				"an interactive job's output goes to its srun or salloc.")));
			return;
		}
		// what the job record already says needs no request
		const file = stream === "stdout" ? j.stdout_expanded :
			j.stderr_expanded || j.stdout_expanded;
		if (file === "/dev/null") {
			drawOutput(h("p", { class: "note", id: "job-output-none" },
				`Output not available: ${stream === "stdout" ? "StdOut" : "StdErr"}` +
				" is /dev/null, nothing is kept."));
			return;
		}
		outBusy = true;
		try {
			const d = await call("GET", `/sluice/v1/job/${encodeURIComponent(id)}` +
				`/output?stream=${stream}&bytes=${OUTPUT_BYTES}`);
			const o = (d && d.output) || {};
			if (!alive)
				return;
			const atEnd = outPre.scrollHeight - outPre.scrollTop - outPre.clientHeight < 8;
			outPre.textContent = o.text || "";
			outInfo.textContent = `${o.path} on ${o.node}, ${num(o.size)} bytes` +
				(num(o.offset) > 0 ? ` (the last ${num(o.bytes)} shown)` : "");
			drawOutput(outPre, outInfo);
			if (atEnd || !outPre.dataset.seen)
				outPre.scrollTop = outPre.scrollHeight;
			outPre.dataset.seen = "1";
		} catch (e) {
			if (alive && e.status !== 401)
				drawOutput(h("p", { class: "note", id: "job-output-none" },
					`Output not available: ${e.message}`));
		} finally {
			outBusy = false;
		}
	}

	const acct = h("div", { id: "acct" });
	// What the accounting database recorded (slurmdbd): the steps (also
	// while the job runs), the usage once it ended, and the batch script
	// when the site keeps it (AccountingStoreFlags=job_script).
	async function loadAcct(j) {
		const ended = !["PENDING", "RUNNING", "COMPLETING", "SUSPENDED"]
			.includes(jobState(j));
		let a;
		try {
			const d = await get(`/slurmdb/v0.0.43/jobs?step=${encodeURIComponent(id)}` +
				"&show_batch_script=true");
			a = (d.jobs || [])[0];
		} catch {
			return;         /* no accounting: nothing to add */
		}
		if (!a || !alive)
			return;
		const steps = a.steps || [];
		fill(acct,
			ended && h("h2", null, "Accounting"),
			ended && h("dl", { class: "fields" },
			  h("dt", null, "Elapsed"), h("dd", null, duration(num(a.time && a.time.elapsed))),
			  h("dt", null, "TotalCPU"), h("dd", null,
				duration(num(a.time && a.time.total && a.time.total.seconds))),
			  h("dt", null, "ExitCode"), h("dd", null, exitCode(a.exit_code))),
			steps.length > 0 && h("h2", null, "Steps"),
			steps.length > 0 && h("table", { class: "steps", id: "job-steps" },
			  h("thead", null, h("tr", null, ["Step", "Name", "State", "Elapsed",
				"Nodes", "ExitCode"].map((t) => h("th", null, t)))),
			  h("tbody", null, steps.map((st) => h("tr", null,
				h("td", null, st.step && st.step.id || ""),
				h("td", null, st.step && st.step.name || ""),
				h("td", null, ((st.state || [])[0]) || ""),
				h("td", null, duration(num(st.time && st.time.elapsed))),
				h("td", null, st.nodes && st.nodes.range || ""),
				h("td", null, exitCode(st.exit_code)))))),
			h("h2", null, "Batch script"),
			typeof a.script === "string" && a.script ?
				h("pre", { class: "script", id: "job-script" }, a.script) :
				h("p", { class: "note", id: "job-script-none" },
				  "Not kept: the accounting database keeps batch scripts " +
				  "when slurm.conf has AccountingStoreFlags=job_script " +
				  "(and an interactive job has none)."));
	}

	let last = "", cur = null;
	async function load() {
		try {
			const d = await get(`job/${encodeURIComponent(id)}`);
			const j = (d.jobs || [])[0];
			if (!alive)
				return;
			if (!j)
				throw new Error(`no job ${id}`);
			cur = j;
			// the output: again while it may grow, and once when the
			// state changes (its last lines, or why there is none)
			if (RUNS.includes(jobState(j)) || outFor !== `${jobState(j)}/${stream}`)
				loadOutput(j);
			// only where slurmdbd keeps accounting (the API says which)
			const dbd = d.meta && d.meta.plugin &&
			    d.meta.plugin.accounting_storage === "accounting_storage/slurmdbd";
			// a profile grows while the job runs: read again at each poll
			const profiled = dbd && list(j.profile).includes("TASK");
			if (profiled && RUNS.includes(jobState(j)))
				loadProfile();
			const text = JSON.stringify(j);
			if (text === last)
				return;         // unchanged: keep what the user opened
			last = text;
			draw(j);
			if (dbd)
				loadAcct(j);
			if (profiled)
				loadProfile();
		} catch (e) {
			if (!alive)
				return;
			if (e.status !== 401)
				fill(body, h("h1", null, `Job ${id}`),
					h("p", { class: "error", id: "job-error" }, e.message),
					h("p", null, h("a", { href: href("jobs") }, "Back to the job list")));
		}
	}

	el.append(h("section", { class: "job" }, body));
	fill(body, h("p", null, "Loading…"));
	load();
	timer = setInterval(() => !document.hidden && load(), POLL_MS);
	return () => {
		alive = false;
		profCharts.forEach((c) => c.destroy());
		clearInterval(timer);
	};
}
