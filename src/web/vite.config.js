// The web view is served by slurmrestd under /ui/ (slurmrestd --ui-dir).
import { defineConfig } from "vite";

export default defineConfig({
	base: "/ui/",
	build: {
		// CSP default-src 'self': no data: URLs, nothing inline
		assetsInlineLimit: 0,
		modulePreload: { polyfill: false },
		sourcemap: false,
		chunkSizeWarningLimit: 1000,
	},
});
