// submit.js — a batch job from a form (sbatch's common options).  What is
// typed is kept in this tab's sessionStorage as it is typed, so a token
// that expires half-way loses nothing: log in again and it is all there.
import { post } from "../api.js";
import { h } from "../dom.js";
import { go } from "../router.js";
import { fetchDoc, pollJobs } from "../store.js";

const DRAFT = "sluice.draft.submit";
const SCRIPT = "#!/bin/bash\n#SBATCH --output=slurm-%j.out\n\nhostname\nsleep 10\n";

// [name, label, input attributes, help]
const FIELDS = [
	["name", "Job name", { type: "text", maxlength: 200 }, "-J"],
	["partition", "Partition", { type: "text", list: "partitions" }, "-p (default partition if empty)"],
	["account", "Account", { type: "text" }, "-A"],
	["nodes", "Nodes", { type: "number", min: 1 }, "-N"],
	["tasks", "Tasks", { type: "number", min: 1 }, "-n"],
	["cpus_per_task", "CPUs per task", { type: "number", min: 1 }, "-c"],
	["memory", "Memory per node (MB)", { type: "number", min: 1 }, "--mem"],
	["time", "Time limit (minutes)", { type: "number", min: 1 }, "-t"],
	["array", "Array", { type: "text", placeholder: "0-9%2" }, "-a"],
	["dependency", "Dependency", { type: "text", placeholder: "afterok:123" }, "-d"],
	["workdir", "Working directory", { type: "text" }, "-D"],
	["output", "Output file", { type: "text", placeholder: "slurm-%j.out" }, "-o"],
];

function loadDraft() {
	try {
		return JSON.parse(sessionStorage.getItem(DRAFT)) || {};
	} catch {
		return {};
	}
}

// The job/submit body for what the form holds.
export function submitBody(v) {
	const job = {
		name: v.name || "web-job",
		current_working_directory: v.workdir || "/tmp",
		environment: ["PATH=/usr/local/bin:/usr/bin:/bin"],
	};
	const int = (k) => (v[k] ? parseInt(v[k], 10) : null);
	if (v.partition) job.partition = v.partition;
	if (v.account) job.account = v.account;
	if (int("nodes")) job.minimum_nodes = int("nodes");
	if (int("tasks")) job.tasks = int("tasks");
	if (int("cpus_per_task")) job.cpus_per_task = int("cpus_per_task");
	if (int("memory")) job.memory_per_node = { set: true, number: int("memory") };
	if (int("time")) job.time_limit = { set: true, number: int("time") };
	if (v.array) job.array = v.array;
	if (v.dependency) job.dependency = v.dependency;
	if (v.output) job.standard_output = v.output;
	if (v.hold) job.hold = true;
	return { script: v.script || SCRIPT, job };
}

export function submitView(el) {
	const draft = loadDraft();
	const msg = h("p", { class: "msg", role: "status", id: "submit-msg" });
	if (!draft.workdir)
		draft.workdir = "/tmp";
	const save = () => {
		const v = {};
		for (const e of form.elements)
			if (e.name)
				v[e.name] = e.type === "checkbox" ? e.checked : e.value;
		sessionStorage.setItem(DRAFT, JSON.stringify(v));
		return v;
	};
	const parts = h("datalist", { id: "partitions" });
	const form = h("form", { id: "submit-form", class: "submit", oninput: save,
		onsubmit: async (ev) => {
			ev.preventDefault();
			const v = save();
			msg.className = "msg";
			msg.textContent = "Submitting…";
			try {
				const d = await post("job/submit", submitBody(v));
				sessionStorage.removeItem(DRAFT);
				msg.textContent = `Submitted job ${d.job_id}.`;
				pollJobs(true);
				go("job", d.job_id);
			} catch (e) {
				msg.className = "msg error";
				msg.textContent = `Refused: ${e.message}`;
			}
		} },
		h("fieldset", null, h("legend", null, "Resources"),
		  FIELDS.map(([k, label, attrs, help]) => h("label", null,
			h("span", null, label),
			h("input", { ...attrs, name: k, id: "f-" + k, value: draft[k] ?? "" }),
			h("small", null, help)))),
		h("label", { class: "check" }, h("input", {
			type: "checkbox", name: "hold", id: "f-hold", checked: !!draft.hold,
		}), " Submit held (-H)"),
		h("label", { class: "script" }, h("span", null, "Batch script"),
		  h("textarea", { name: "script", id: "f-script", rows: 12, cols: 80,
			spellcheck: "false", value: draft.script ?? SCRIPT })),
		h("div", null, h("button", { type: "submit", id: "submit" }, "Submit"),
		  " ", h("button", { type: "button", onclick: () => {
			sessionStorage.removeItem(DRAFT);
			el.replaceChildren();
			submitView(el);
		  } }, "Clear")),
		msg, parts);
	el.append(h("section", null, h("h1", null, "Submit a job"), form));
	fetchDoc("partitions", 60000).then((d) => {
		for (const p of d.partitions || [])
			parts.append(h("option", { value: p.name }));
	}).catch(() => {});
}
