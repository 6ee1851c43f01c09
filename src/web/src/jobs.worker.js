// jobs.worker.js — fetches and parses the job list off the page's thread:
// with 50,000 jobs slurmrestd's answer is some 250 MB of JSON, and parsing
// it on the main thread would freeze the page for seconds at every poll.
// Only the fields the list, overview, node and timeline views read are
// sent back, with {set, infinite, number} values made plain numbers.

const KEEP = [
	"job_id", "array_job_id", "array_task_id", "array_task_string", "name",
	"user_name", "account", "partition", "job_state", "state_reason",
	"start_time", "end_time", "time_limit", "node_count", "nodes",
	"scheduled_nodes",
];

function plain(v) {
	if (v && typeof v === "object" && !Array.isArray(v) && ("set" in v || "infinite" in v)) {
		if (v.infinite)
			return Infinity;
		return v.set === false ? null : v.number;
	}
	return v;
}

self.onmessage = async (ev) => {
	const { id, url, token } = ev.data;
	try {
		const headers = { Accept: "application/json" };
		if (token)
			headers["X-SLURM-USER-TOKEN"] = token;
		const r = await fetch(url, {
			headers,
			credentials: "omit", cache: "no-store",
		});
		const text = await r.text();
		let doc = null;
		try {
			doc = JSON.parse(text);
		} catch {
			doc = null;
		}
		const errors = doc && doc.errors && doc.errors.length ?
			doc.errors.map((e) => e.description || e.error).join("; ") : null;
		if (!r.ok || errors || !doc) {
			self.postMessage({ id, status: r.status,
				error: errors || text.slice(0, 200) || `HTTP ${r.status}` });
			return;
		}
		const jobs = (doc.jobs || []).map((j) => {
			const o = {};
			for (const k of KEEP)
				if (k in j)
					o[k] = plain(j[k]);
			return o;
		});
		self.postMessage({ id, status: r.status, jobs,
			last_update: plain(doc.last_update) || 0 });
	} catch (e) {
		self.postMessage({ id, status: 0, error: String(e.message || e) });
	}
};
