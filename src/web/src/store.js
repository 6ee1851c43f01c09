// store.js — what the views show, polled from slurmrestd.
//
// Jobs are polled every few seconds with update_time: when nothing changed
// since the last answer the controller says so and sends no jobs, so a page
// left open costs it almost nothing.  Other lists are fetched when a view
// needs them and refreshed less often.  Views subscribe and redraw.
import { get } from "./api.js";
import { num } from "./format.js";

export const POLL_MS = 5000;
const STALE_MS = 3 * POLL_MS;

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
	return !store.fetchedAt || Date.now() - store.fetchedAt > STALE_MS;
}

export async function pollJobs(full = false) {
	const since = !full && store.jobsLoaded ? store.lastUpdate : 0;
	try {
		const doc = await get(since ? `jobs?update_time=${since}` : "jobs");
		const lu = num(doc.last_update) || 0;
		const jobs = doc.jobs || [];
		if (!(since && jobs.length === 0 && lu <= since)) {
			store.jobs = jobs;
			store.lastUpdate = lu;
			store.jobsLoaded = true;
		}
		store.fetchedAt = Date.now();
		store.error = null;
	} catch (e) {
		store.error = e.message;
	}
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
	timer = setInterval(() => {
		if (!document.hidden)
			pollJobs();
	}, POLL_MS);
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
