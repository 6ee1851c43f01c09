// Unit tests of the web view's pure functions (node --test; no browser):
// bad and odd inputs first, then the ordinary ones.
import assert from "node:assert/strict";
import { test } from "node:test";

import { duration, jobId, mb, minutes, nodeBucket, num, reasonText } from "../src/format.js";
import { expand } from "../src/hostlist.js";
import { matcher } from "../src/views/jobs.js";
import { submitBody } from "../src/views/submit.js";

test("num: REST numbers in every shape", () => {
	for (const [v, want] of [
		[undefined, null], [null, null],
		[{ set: false, infinite: false, number: 5 }, null],
		[{ set: false, infinite: true, number: 0 }, Infinity],
		[{ set: true, infinite: false, number: 0 }, 0],
		[{ set: true, infinite: false, number: 1796213075 }, 1796213075],
		[42, 42], ["x", "x"],
	])
		assert.equal(num(v), want, JSON.stringify(v));
});

test("duration and minutes as Slurm prints them", () => {
	assert.equal(duration(null), "");
	assert.equal(duration(Infinity), "UNLIMITED");
	assert.equal(duration(-5), "00:00:00");
	assert.equal(duration(59), "00:00:59");
	assert.equal(duration(59, true), "0:59");
	assert.equal(duration(3600 * 25 + 61), "1-01:01:01");
	assert.equal(minutes({ set: true, number: 10 }), "00:10:00");
	assert.equal(minutes({ set: false, infinite: true }), "UNLIMITED");
	assert.equal(minutes({ set: false, infinite: false }), "");
	assert.equal(minutes(2880), "2-00:00:00");
});

test("sizes in Slurm's units", () => {
	assert.equal(mb(null), "");
	assert.equal(mb({ set: false, infinite: true }), "UNLIMITED");
	assert.equal(mb(0), "0M");
	assert.equal(mb(1000), "1000M");
	assert.equal(mb(2048), "2G");
	assert.equal(mb(64000), "62.50G");
	assert.equal(mb(1024 * 1024), "1T");
});

test("job ids of arrays", () => {
	assert.equal(jobId({ job_id: 7, array_job_id: 0 }), "7");
	assert.equal(jobId({ job_id: 9, array_job_id: { set: true, number: 5 },
		array_task_id: { set: true, number: 3 } }), "5_3");
	assert.equal(jobId({ job_id: 5, array_job_id: 5, array_task_id: null,
		array_task_string: "4-9%2" }), "5_[4-9%2]");
});

test("pending reasons in words", () => {
	assert.equal(reasonText(undefined), "");
	assert.equal(reasonText("None"), "");
	assert.match(reasonText("Resources"), /waiting for nodes/);
	assert.match(reasonText("ReqNodeNotAvail, May be reserved for other job"),
		/^A node it needs .*\(ReqNodeNotAvail, May be reserved/);
	assert.match(reasonText("AssocGrpBillingMinutes"), /association limit/);
	assert.equal(reasonText("SomethingNew"), "SomethingNew");
	assert.equal(reasonText("<b>x</b>"), "<b>x</b>");    // shown as text later
});

test("node states as sinfo groups them", () => {
	assert.equal(nodeBucket({ state: ["IDLE", "DRAIN"] }), "drained");
	assert.equal(nodeBucket({ state: ["MIXED", "DRAIN"] }), "draining");
	assert.equal(nodeBucket({ state: ["IDLE", "NOT_RESPONDING"] }), "down");
	assert.equal(nodeBucket({ state: ["ALLOCATED"] }), "allocated");
	assert.equal(nodeBucket({ state: "IDLE" }), "idle");
	assert.equal(nodeBucket({ state: [] }), "unknown");
});

test("hostlists", () => {
	assert.deepEqual(expand(""), []);
	assert.deepEqual(expand(undefined), []);
	assert.deepEqual(expand("n1"), ["n1"]);
	assert.deepEqual(expand("n[1-3],gpu1"), ["n1", "n2", "n3", "gpu1"]);
	assert.deepEqual(expand("n[01-02,07]"), ["n01", "n02", "n07"]);
	assert.deepEqual(expand("a[1-2]b"), ["a1b", "a2b"]);
	assert.equal(expand("n[1-99999999]").length, 100000);   // bounded
});

test("the job list's filters (squeue's)", () => {
	const jobs = [
		{ job_id: 1, user_name: "a", account: "x", partition: "p1,p2", name: "t", job_state: ["PENDING"] },
		{ job_id: 2, user_name: "b", account: "y", partition: "p2", name: "u", job_state: ["RUNNING"] },
		{ job_id: 3, user_name: "a", account: "y", partition: "p3", name: "t", job_state: ["COMPLETED"] },
	];
	const ids = (p, me) => jobs.filter(matcher(p, me)).map((j) => j.job_id);
	assert.deepEqual(ids({}), [1, 2, 3]);
	assert.deepEqual(ids({ user: " , " }), [1, 2, 3]);
	assert.deepEqual(ids({ user: "nobody" }), []);
	assert.deepEqual(ids({ state: "pd,R" }), [1, 2]);
	assert.deepEqual(ids({ state: "all" }), [1, 2, 3]);
	assert.deepEqual(ids({ partition: "p2" }), [1, 2]);
	assert.deepEqual(ids({ account: "y", name: "t" }), [3]);
	assert.deepEqual(ids({ me: "1" }, "b"), [2]);
	assert.deepEqual(ids({ me: "1" }, undefined), [1, 2, 3]);
});

test("the submit form's body", () => {
	const b = submitBody({});
	assert.equal(b.job.name, "web-job");
	assert.equal(b.job.current_working_directory, "/tmp");
	assert.match(b.script, /^#!/);
	assert.equal("time_limit" in b.job, false);
	const c = submitBody({ name: "n", partition: "p", nodes: "2", tasks: "4",
		cpus_per_task: "2", memory: "500", time: "30", array: "0-9%2",
		dependency: "afterok:1", output: "o-%j", hold: true, script: "#!/bin/sh\n" });
	assert.deepEqual(c.job.time_limit, { set: true, number: 30 });
	assert.deepEqual(c.job.memory_per_node, { set: true, number: 500 });
	assert.equal(c.job.minimum_nodes, 2);
	assert.equal(c.job.tasks, 4);
	assert.equal(c.job.array, "0-9%2");
	assert.equal(c.job.hold, true);
	assert.equal(c.job.standard_output, "o-%j");
});

test("profileSeries: bad rows left out, a line per step and node", async () => {
	const { profileSeries, CPU, RSS_MB } = await import("../src/profile.js");
	assert.deepEqual(profileSeries(undefined, CPU), { start: 0, series: [] });
	assert.deepEqual(profileSeries([null, { time: "x", cpu_utilization: 1 }], CPU),
		{ start: 0, series: [] });
	const rows = [
		{ step: "0", node: "n2", time: 105, cpu_utilization: 50, rss: 2048 },
		{ step: "0", node: "n1", time: 102, cpu_utilization: 99.5, rss: 1024 },
		{ step: "0", node: "n1", time: 100, cpu_utilization: 10, rss: 512 },
		{ step: "1", node: "n1", time: 110, cpu_utilization: NaN, rss: 4096 },
	];
	const cpu = profileSeries(rows, CPU);
	assert.equal(cpu.start, 100);
	assert.deepEqual(cpu.series, [
		{ label: "0@n2", points: [{ x: 5, y: 50 }] },
		{ label: "0@n1", points: [{ x: 0, y: 10 }, { x: 2, y: 99.5 }] },
	]);
	const mem = profileSeries(rows, RSS_MB);
	assert.deepEqual(mem.series.map((s) => s.label), ["0@n2", "0@n1", "1@n1"]);
	assert.deepEqual(mem.series[2].points, [{ x: 10, y: 4 }]);
});
