import { execSync } from 'node:child_process';
import { defineConfig } from '@playwright/test';

/** Debian's chromium (Playwright's own browser download cannot work offline). */
function chromiumPath(): string | undefined {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  try {
    return execSync('command -v chromium || command -v chromium-browser', { encoding: 'utf8', shell: '/bin/sh' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

const port = process.env.E2E_PORT ?? '3311';

export default defineConfig({
  testDir: 'e2e',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  workers: 1,
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['list'], ['json']] : [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    viewport: { width: 1280, height: 900 },
    launchOptions: {
      executablePath: chromiumPath(),
      args: ['--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic', '--no-first-run'],
    },
  },
  // The setup project creates the instance's first account (its admin); every other test runs signed in as it
  // unless it opens a context of its own.
  projects: [
    { name: 'setup', testMatch: /auth\.setup\.ts/ },
    { name: 'app', testMatch: /\.spec\.ts/, dependencies: ['setup'], use: { storageState: 'e2e/.auth/admin.json' } },
  ],
  webServer: {
    command: 'node --import tsx e2e/serve.ts',
    url: `http://127.0.0.1:${port}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    env: { E2E_PORT: port },
  },
});
