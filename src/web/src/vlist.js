// vlist.js — a virtualised list of fixed-height rows: only the rows in
// view (and a few around them) exist in the DOM, so 50,000 jobs scroll as
// smoothly as 50.  Arrow keys, Page Up/Down, Home/End move the selection;
// Enter opens it.
import { h, fill } from "./dom.js";

export const ROW = 28;
const OVERSCAN = 8;

// opts: { rowEl(item, index) -> element, onOpen(item), label }
export function vlist(opts) {
	const spacer = h("div", { class: "vl-spacer" });
	const box = h("div", {
		class: "vl", tabindex: 0, role: "grid", "aria-label": opts.label,
		"aria-rowcount": 0,
	}, spacer);
	let items = [], sel = -1, raf = 0;

	function draw() {
		raf = 0;
		const top = box.scrollTop, height = box.clientHeight || 600;
		const first = Math.max(0, Math.floor(top / ROW) - OVERSCAN);
		const last = Math.min(items.length, Math.ceil((top + height) / ROW) + OVERSCAN);
		const rows = [];
		for (let i = first; i < last; i++) {
			const row = opts.rowEl(items[i], i);
			row.style.transform = `translateY(${i * ROW}px)`;
			row.setAttribute("role", "row");
			row.setAttribute("aria-rowindex", i + 1);
			row.dataset.index = i;
			if (i === sel)
				row.classList.add("selected");
			rows.push(row);
		}
		spacer.style.height = `${items.length * ROW}px`;
		fill(spacer, rows);
	}

	function schedule() {
		if (!raf)
			raf = requestAnimationFrame(draw);
	}

	function select(i) {
		if (!items.length)
			return;
		sel = Math.max(0, Math.min(items.length - 1, i));
		const y = sel * ROW;
		if (y < box.scrollTop)
			box.scrollTop = y;
		else if (y + ROW > box.scrollTop + box.clientHeight)
			box.scrollTop = y + ROW - box.clientHeight;
		draw();
	}

	box.addEventListener("scroll", schedule, { passive: true });
	box.addEventListener("click", (ev) => {
		const row = ev.target.closest("[data-index]");
		if (!row || ev.target.closest("a,button"))
			return;
		sel = Number(row.dataset.index);
		opts.onOpen(items[sel]);
	});
	box.addEventListener("keydown", (ev) => {
		const page = Math.max(1, Math.floor(box.clientHeight / ROW) - 1);
		const moves = {
			ArrowDown: sel + 1, ArrowUp: sel - 1, PageDown: sel + page,
			PageUp: sel - page, Home: 0, End: items.length - 1,
		};
		if (ev.key in moves) {
			ev.preventDefault();
			select(moves[ev.key]);
		} else if (ev.key === "Enter" && sel >= 0 && items[sel]) {
			ev.preventDefault();
			opts.onOpen(items[sel]);
		}
	});
	new ResizeObserver(schedule).observe(box);

	return {
		el: box,
		set(newItems) {
			items = newItems;
			if (sel >= items.length)
				sel = items.length - 1;
			box.setAttribute("aria-rowcount", items.length);
			draw();
		},
	};
}
