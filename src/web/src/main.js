// main.js — the web view's shell: login, navigation, theme, live status.
import "./style.css";
import { loggedIn, probeSession, sessionUser, setToken, setUnauthorizedHandler, token } from "./api.js";
import { h, fill } from "./dom.js";
import { go, href, parseHash } from "./router.js";
import { stale, startPolling, stopPolling, store, subscribe } from "./store.js";
import { loginView } from "./views/login.js";
import { overviewView } from "./views/overview.js";
import { jobsView } from "./views/jobs.js";
import { jobView } from "./views/job.js";
import { submitView } from "./views/submit.js";
import { nodesView, nodeView } from "./views/nodes.js";
import { resvView } from "./views/resv.js";
import { timelineView } from "./views/timeline.js";
import { sharesView } from "./views/shares.js";
import { usageView } from "./views/usage.js";

const VIEWS = {
	overview: { title: "Overview", draw: overviewView },
	jobs: { title: "Jobs", draw: jobsView },
	job: { draw: jobView, nav: "jobs" },
	submit: { title: "Submit", draw: submitView },
	nodes: { title: "Nodes", draw: nodesView },
	node: { draw: nodeView, nav: "nodes" },
	timeline: { title: "Timeline", draw: timelineView },
	reservations: { title: "Reservations", draw: resvView },
	shares: { title: "Fair share", draw: sharesView },
	usage: { title: "Usage", draw: usageView },
	login: { draw: loginView },
};

const view = document.getElementById("view");
let cleanup = null;

function drawNav(current) {
	const nav = document.getElementById("nav");
	fill(nav, Object.entries(VIEWS).filter(([, v]) => v.title).map(([k, v]) =>
		h("a", { href: href(k), "aria-current": k === current ? "page" : null },
		  v.title)));
}

function drawStatus() {
	const el = document.getElementById("status");
	if (!loggedIn()) {
		fill(el);
		return;
	}
	const age = store.fetchedAt ? Math.round((Date.now() - store.fetchedAt) / 1000) : null;
	const bad = store.error || stale();
	el.className = bad ? "stale" : "fresh";
	fill(el, store.error ? `Not updated: ${store.error}` :
		age === null ? "Loading…" :
		`${bad ? "Stale: " : "Live: "}updated ${age}s ago`);
	el.title = store.lastUpdate ?
		`controller's last_update ${new Date(store.lastUpdate * 1000).toISOString()}` : "";
}

function drawWho() {
	fill(document.getElementById("who"), sessionUser());
	/* a session the proxy logged in is ended at the proxy */
	document.getElementById("logout").hidden = !token();
}

function route() {
	const r = parseHash();
	if (!loggedIn() && r.view !== "login") {
		go("login", null, { next: location.hash.slice(1) });
		return;
	}
	const v = VIEWS[r.view] || VIEWS.overview;
	if (cleanup)
		cleanup();
	cleanup = null;
	fill(view);
	drawNav(v.nav || r.view);
	drawWho();
	drawStatus();
	document.body.dataset.view = r.view;
	if (loggedIn())
		startPolling();
	cleanup = v.draw(view, r) || null;
	view.focus({ preventScroll: true });
}

// An expired or refused token: back to the login page, which returns here
// (a form being filled is kept in sessionStorage by its view).
setUnauthorizedHandler(() => {
	const here = location.hash.slice(1);
	stopPolling();
	if (parseHash().view !== "login")
		go("login", null, { next: here, expired: 1 });
});

document.getElementById("logout").addEventListener("click", () => {
	setToken(null);
	stopPolling();
	go("login");
});

const THEME = "sluice.theme";
function applyTheme(t) {
	document.documentElement.dataset.theme = t || "";
}
applyTheme(localStorage.getItem(THEME));
document.getElementById("theme").addEventListener("click", () => {
	const dark = document.documentElement.dataset.theme ?
		document.documentElement.dataset.theme === "dark" :
		matchMedia("(prefers-color-scheme: dark)").matches;
	const t = dark ? "light" : "dark";
	localStorage.setItem(THEME, t);
	applyTheme(t);
});

subscribe(drawStatus);
setInterval(drawStatus, 1000);
window.addEventListener("hashchange", route);
// No token in this tab: a slurmrestd that authenticates by itself may
// answer anyway (api.js); then the page needs no login.
if (token())
	route();
else
	probeSession().then(() => {
		const r = parseHash();
		if (loggedIn() && r.view === "login")
			location.hash = r.params.next && !r.params.next.startsWith("/login") ?
				"#" + r.params.next : "#/overview";
		else
			route();
	});
