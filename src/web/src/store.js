// store.js — what the views show, polled from slurmrestd.
//
// Jobs are polled every few seconds with update_time: when nothing changed
// since the last answer the controller says so and sends no jobs, so a page
// left open costs it almost nothing.  Other lists are fetched when a view
// needs them and refreshed less often.  Views subscribe and redraw.
import { VER, get, token, unauthorized } from "./api.js";
import { num } from "./format.js";

export const POLL_MS = 5000;

export const store = {
	jobs: [],
	jobsLoaded: false,
	lastUpdate: 0,          // the controller's last_update of the list
	fetchedAt: 0,           // Date.now() of the last good answer
	error: null,
	other: {},              // path -> { doc, at }
};

const listeners = new Set();

export function subscribe(f) {
	listeners.add(f);
	return () => listeners.delete(f);
}

function notify() {
	for (const f of [...listeners])
		f();
}

export function stale() {
	return !store.fetchedAt || Date.now() - store.fetchedAt > 3 * pollEvery + 2000;
}

// The job list comes through a worker (jobs.worker.js): parsing a big
// answer never blocks the page.  Without workers, on this thread.
let worker = null, seq = 0, inflight = null;
const waiting = new Map();

function viaWorker(path) {
	if (!worker) {
		worker = new Worker(new URL("./jobs.worker.js", import.meta.url),
				    { type: "module" });
		worker.onmessage = (ev) => {
			const done = waiting.get(ev.data.id);
			waiting.delete(ev.data.id);
			if (done)
				done(ev.data);
		};
	}
	const id = ++seq;
	return new Promise((resolve) => {
		waiting.set(id, resolve);
		worker.postMessage({ id, url: `/slurm/${VER}/${path}`, token: token() });
	});
}

async function fetchJobs(path) {
	if (typeof Worker === "undefined") {
		const doc = await get(path);
		return { status: 200, jobs: doc.jobs || [], last_update: num(doc.last_update) || 0 };
	}
	const a = await viaWorker(path);
	if (a.status === 401) {
		unauthorized();
		throw new Error("Your token was refused (expired?)");
	}
	if (a.error)
		throw new Error(a.error);
	return a;
}

// A poll that took long (a huge queue, a busy controller) spaces the next
// ones out: never more than a fifth of the time spent polling.
let pollEvery = POLL_MS;

export function pollJobs(full = false) {
	if (inflight)
		return inflight;
	inflight = pollOnce(full).finally(() => {
		inflight = null;
	});
	return inflight;
}

async function pollOnce(full) {
	const since = !full && store.jobsLoaded ? store.lastUpdate : 0;
	const t0 = Date.now();
	try {
		const a = await fetchJobs(since ? `jobs?update_time=${since}` : "jobs");
		const lu = a.last_update || 0;
		if (!(since && a.jobs.length === 0 && lu <= since)) {
			store.jobs = a.jobs;
			store.lastUpdate = lu;
			store.jobsLoaded = true;
		}
		store.fetchedAt = Date.now();
		store.error = null;
	} catch (e) {
		store.error = e.message;
	}
	pollEvery = Math.max(POLL_MS, 5 * (Date.now() - t0));
	notify();
}

// A list other than jobs (nodes, partitions, diag...), refreshed when older
// than maxAge ms.
export async function fetchDoc(path, maxAge = 10000) {
	const o = store.other[path];
	if (o && Date.now() - o.at < maxAge)
		return o.doc;
	const doc = await get(path);
	store.other[path] = { doc, at: Date.now() };
	return doc;
}

export function forget(path) {
	if (path)
		delete store.other[path];
	else
		store.other = {};
}

let timer = null;

export function startPolling() {
	if (timer)
		return;
	pollJobs(true);
	let next = Date.now() + POLL_MS;
	timer = setInterval(() => {
		if (document.hidden || Date.now() < next)
			return;
		next = Infinity;        // one poll at a time
		pollJobs().then(() => {
			next = Date.now() + pollEvery;
		});
	}, 1000);
}

export function stopPolling() {
	clearInterval(timer);
	timer = null;
	store.jobs = [];
	store.jobsLoaded = false;
	store.lastUpdate = 0;
	store.fetchedAt = 0;
	store.other = {};
}
