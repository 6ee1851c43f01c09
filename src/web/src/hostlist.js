// hostlist.js — "n[01-04,07],gpu1" into its names (one bracket per name,
// as Slurm prints them).

export function expand(expr) {
	const out = [];
	const parts = String(expr || "").match(/[^,[]+(\[[^\]]*\])?[^,]*/g) || [];
	for (const p of parts) {
		const m = p.match(/^([^[]*)\[([^\]]*)\](.*)$/);
		if (!m) {
			if (p)
				out.push(p);
			continue;
		}
		for (const r of m[2].split(",")) {
			const [a, b] = r.split("-");
			if (b === undefined) {
				out.push(m[1] + a + m[3]);
				continue;
			}
			const lo = parseInt(a, 10), hi = parseInt(b, 10);
			for (let i = lo; i <= hi && i - lo < 100000; i++)
				out.push(m[1] + String(i).padStart(a.length, "0") + m[3]);
		}
	}
	return out;
}
