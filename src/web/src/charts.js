// charts.js — Chart.js with only the parts the views use, and colours that
// follow the theme.
import {
	ArcElement, BarController, BarElement, CategoryScale, Chart,
	DoughnutController, Legend, LinearScale, LineController, LineElement,
	PointElement, Tooltip,
} from "chart.js";

Chart.register(ArcElement, BarController, BarElement, CategoryScale,
	DoughnutController, Legend, LinearScale, LineController, LineElement,
	PointElement, Tooltip);

export const STATE_COLORS = {
	idle: "#38a169", mixed: "#d69e2e", allocated: "#dd6b20",
	drained: "#718096", draining: "#a0aec0", down: "#e53e3e",
	reserved: "#805ad5", unknown: "#4a5568",
	running: "#3182ce", pending: "#d69e2e",
};

function fg() {
	return getComputedStyle(document.documentElement).getPropertyValue("--fg").trim() || "#222";
}

export function chart(canvas, config) {
	Chart.defaults.color = fg();
	Chart.defaults.animation = false;
	return new Chart(canvas, config);
}
