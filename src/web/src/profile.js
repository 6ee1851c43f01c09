// profile.js — a profiled job's usage samples (GET /sluice/v1/job/{id}/
// profile, `sacct --profile --json`'s rows) as chart series: one line a
// step on a node, x = seconds since the job's first sample.  Pure: the
// unit tests run it without a browser.

// rows: [{step, node, time, cpu_utilization, rss, ...}]; value(row) the
// y value.  -> { start, series: [{label, points: [{x, y}]}] } in step
// and node order; rows without a finite time or value are left out.
export function profileSeries(rows, value) {
	const ok = (rows || []).filter((r) => r && Number.isFinite(r.time) &&
		Number.isFinite(value(r)));
	if (!ok.length)
		return { start: 0, series: [] };
	const start = Math.min(...ok.map((r) => r.time));
	const by = new Map();
	for (const r of ok) {
		const label = `${r.step}@${r.node}`;
		if (!by.has(label))
			by.set(label, []);
		by.get(label).push({ x: r.time - start, y: value(r) });
	}
	const series = [...by.entries()].map(([label, points]) => ({
		label, points: points.sort((a, b) => a.x - b.x),
	}));
	return { start, series };
}

// The two charts the job page draws: CPU (percent of one CPU) and
// memory (RSS in MiB).
export const CPU = (r) => r.cpu_utilization;
export const RSS_MB = (r) => (Number.isFinite(r.rss) ? r.rss / 1024 : NaN);
