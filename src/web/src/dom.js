// dom.js — building the page without HTML strings.
//
// h(tag, attrs, ...children): children that are strings or numbers become
// text nodes, so whatever a job's name, comment or path holds is shown as
// text and never parsed as markup.  Nothing in the web view uses innerHTML.

export function h(tag, attrs, ...children) {
	const el = document.createElement(tag);
	if (attrs) {
		for (const [k, v] of Object.entries(attrs)) {
			if (v === undefined || v === null || v === false)
				continue;
			if (k.startsWith("on") && typeof v === "function")
				el.addEventListener(k.slice(2), v);
			else if (k === "class")
				el.className = v;
			else if (k === "dataset")
				Object.assign(el.dataset, v);
			else if (k === "value" || k === "checked")
				el[k] = v;
			else if (k === "style" && typeof v === "object")
				Object.assign(el.style, v);
			else
				el.setAttribute(k, v === true ? "" : String(v));
		}
	}
	append(el, children);
	return el;
}

function append(el, children) {
	for (const c of children) {
		if (c === null || c === undefined || c === false)
			continue;
		if (Array.isArray(c))
			append(el, c);
		else if (c instanceof Node)
			el.appendChild(c);
		else
			el.appendChild(document.createTextNode(String(c)));
	}
}

export function clear(el) {
	while (el.firstChild)
		el.removeChild(el.firstChild);
	return el;
}

// Replace el's children.
export function fill(el, ...children) {
	clear(el);
	append(el, children);
	return el;
}
