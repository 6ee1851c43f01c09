// format.js — REST values into what a person reads: times in the browser's
// zone (the raw value on hover), durations and sizes as Slurm prints them,
// pending reasons in plain words.
import { h } from "./dom.js";

// {set, infinite, number} (v0.0.41+) or a bare number: the number, Infinity,
// or null when not set.
export function num(v) {
	if (v === null || v === undefined)
		return null;
	if (typeof v === "object" && !Array.isArray(v)) {
		if ("infinite" in v && v.infinite)
			return Infinity;
		if ("set" in v && !v.set)
			return null;
		return "number" in v ? v.number : null;
	}
	return v;
}

export function list(v) {
	if (Array.isArray(v))
		return v.join(",");
	return v === null || v === undefined ? "" : String(v);
}

const pad = (n) => String(n).padStart(2, "0");

// A Unix time as the browser's local time; "" for unset/0.
export function timeText(t) {
	if (!t || !isFinite(t))
		return t === Infinity ? "Unknown" : "";
	const d = new Date(t * 1000);
	return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ` +
		`${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

// A <time> element: local time, the raw value and UTC on hover.
export function timeEl(v) {
	const t = num(v);
	if (!t || !isFinite(t))
		return h("span", null, t === Infinity ? "Unknown" : "—");
	const iso = new Date(t * 1000).toISOString();
	return h("time", { datetime: iso, title: `${t} (${iso})` }, timeText(t));
}

// Seconds as Slurm's [D-]HH:MM:SS (short: squeue's TIME, M:SS under an hour).
export function duration(s, short = false) {
	if (s === null || s === undefined)
		return "";
	if (!isFinite(s))
		return "UNLIMITED";
	s = Math.max(0, Math.floor(s));
	const d = Math.floor(s / 86400), hh = Math.floor(s / 3600) % 24;
	const mm = Math.floor(s / 60) % 60, ss = s % 60;
	const core = `${pad(hh)}:${pad(mm)}:${pad(ss)}`;
	return d ? `${d}-${core}` : (hh || !short ? core : `${mm}:${pad(ss)}`);
}

export function minutes(v) {
	const m = num(v);
	if (m === null)
		return "";
	return m === Infinity ? "UNLIMITED" : duration(m * 60);
}

// Megabytes as Slurm prints sizes: 1000M, 2G, 1.50T.
export function mb(v) {
	const m = num(v);
	if (m === null || m === undefined)
		return "";
	if (m === Infinity)
		return "UNLIMITED";
	if (m >= 1024 * 1024 && m % (1024 * 1024) === 0)
		return `${m / 1024 / 1024}T`;
	if (m >= 1024 && m % 1024 === 0)
		return `${m / 1024}G`;
	if (m >= 10240)
		return `${(m / 1024).toFixed(2)}G`;
	return `${m}M`;
}

export function jobState(j) {
	const s = j.job_state;
	return Array.isArray(s) ? s[0] || "" : s || "";
}

export function jobId(j) {
	const a = num(j.array_job_id), t = num(j.array_task_id);
	if (a && t !== null && t !== undefined)
		return `${a}_${t}`;
	if (a && j.array_task_string)
		return `${a}_[${j.array_task_string}]`;
	return String(j.job_id);
}

// Why a pending job waits, in plain words.
const REASONS = {
	None: "",
	Priority: "Other jobs with a higher priority are ahead of it.",
	Resources: "It is next, waiting for nodes or CPUs to become free.",
	Dependency: "It waits for the jobs it depends on.",
	DependencyNeverSatisfied: "Its dependency can never be met; it will not start unless you change or cancel it.",
	BeginTime: "It was asked not to start before its begin time.",
	JobHeldUser: "You (or its owner) put it on hold; release it to let it run.",
	JobHeldAdmin: "An administrator put it on hold.",
	ReqNodeNotAvail: "A node it needs is down, drained or reserved.",
	PartitionDown: "Its partition is down.",
	PartitionInactive: "Its partition is inactive.",
	PartitionNodeLimit: "It asks for more or fewer nodes than its partition allows.",
	PartitionTimeLimit: "Its time limit is longer than its partition allows.",
	PartitionConfig: "Its request does not fit its partition's configuration.",
	Reservation: "It waits for its reservation to start.",
	InvalidAccount: "Its account is not valid.",
	InvalidQOS: "Its QOS is not valid.",
	BadConstraints: "No node has the features or sizes it asks for.",
	Licenses: "It waits for licenses.",
	NodeDown: "A node it needs is down.",
	launch_failed_requeued_held: "Its launch failed; it was requeued and held.",
	AssocGrpCpuLimit: "Its association has reached its CPU limit.",
	AssocGrpJobsLimit: "Its association has reached its running-jobs limit.",
	AssocGrpNodeLimit: "Its association has reached its node limit.",
	AssocMaxJobsLimit: "You have reached the number of jobs you may run at once.",
	AssocGrpSubmitJobsLimit: "Its association has reached its submitted-jobs limit.",
	QOSMaxJobsPerUserLimit: "You have reached the number of jobs its QOS lets one user run.",
	QOSGrpCpuLimit: "Its QOS has reached its CPU limit.",
	QOSGrpNodeLimit: "Its QOS has reached its node limit.",
	QOSMaxWallDurationPerJobLimit: "Its time limit is longer than its QOS allows.",
	JobArrayTaskLimit: "Its array has as many tasks running as it allows (%N).",
	Cleaning: "It was requeued and waits for its old allocation to be cleaned up.",
	Prolog: "Its prolog is running.",
	NodeActivation: "Its nodes are booting.",
	Requeued: "It was requeued.",
	SystemFailure: "A system failure stopped it.",
	TimeLimit: "It reached its time limit.",
	NonZeroExitCode: "It exited with a non-zero code.",
	OutOfMemory: "It ran out of memory.",
	RaisedSignal: "It was killed by a signal.",
};

export function reasonText(r) {
	if (!r || r === "None")
		return "";
	if (REASONS[r] !== undefined)
		return REASONS[r];
	const first = r.split(/[,(]/)[0].trim();
	if (first !== r && REASONS[first])
		return `${REASONS[first]} (${r})`;
	if (/^Assoc/.test(r))
		return `An association limit holds it (${r}).`;
	if (/^QOS/.test(r))
		return `A QOS limit holds it (${r}).`;
	return r;
}

export function stateClass(s) {
	return "st st-" + String(s || "").toLowerCase().replace(/[^a-z_]/g, "");
}

// A node's state list as sinfo's long form: "IDLE+DRAIN".
export function nodeState(n) {
	const s = n.state;
	return Array.isArray(s) ? s.join("+") : String(s || "");
}

// sinfo's short groups: drained, draining, down, allocated, mixed, idle...
export function nodeBucket(n) {
	const s = Array.isArray(n.state) ? n.state : [String(n.state)];
	const has = (x) => s.includes(x);
	if (has("DOWN") || has("NOT_RESPONDING") || has("FAIL"))
		return "down";
	if (has("DRAIN"))
		return has("ALLOCATED") || has("MIXED") ? "draining" : "drained";
	if (has("RESERVED"))
		return "reserved";
	if (has("ALLOCATED"))
		return "allocated";
	if (has("MIXED"))
		return "mixed";
	if (has("IDLE"))
		return "idle";
	return (s[0] || "unknown").toLowerCase();
}
