// The web view is served by slurmrestd under /ui/ (slurmrestd --ui-dir).
import { defineConfig } from "vite";

// `npm run dev`: a development server that passes the API to a running
// slurmrestd (SLURMRESTD=http://127.0.0.1:6820 by default).
const api = process.env.SLURMRESTD || "http://127.0.0.1:6820";

export default defineConfig({
	base: "/ui/",
	server: {
		proxy: { "/slurm": api, "/slurmdb": api, "/openapi": api },
	},
	build: {
		// CSP default-src 'self': no data: URLs, nothing inline
		assetsInlineLimit: 0,
		modulePreload: { polyfill: false },
		sourcemap: false,
		chunkSizeWarningLimit: 1000,
	},
});
