import { expect, test as setup } from '@playwright/test';
import { shots } from './helpers.ts';

/**
 * Runs before the other browser tests: creates the first account of the fresh test instance in the browser (it
 * becomes admin) and keeps its session for the tests that import, evaluate or run campaigns.
 */
export const ADMIN_STATE = 'e2e/.auth/admin.json';

setup('the first account created on a fresh instance becomes its admin', async ({ page }) => {
  await page.goto('/import');
  await expect(page.getByTestId('needs-role')).toContainText('Importing papers needs an admin account');
  await page.goto('/sign-in?mode=sign-up');
  await page.getByLabel('Name').fill('Ada Admin');
  await page.getByLabel('Email').fill('admin@example.org');
  await page.getByLabel('Password').fill('e2e-admin-password');
  await page.screenshot({ path: `${shots}/sign-up.png` });
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByTestId('account')).toContainText('admin');
  await page.context().storageState({ path: ADMIN_STATE });
});
