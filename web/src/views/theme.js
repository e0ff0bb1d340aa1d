// Light and dark themes: the system preference by default, or the user's choice remembered in localStorage.
import { readSetting, writeSetting } from '../state/settings.js';

export const THEME_KEY = 'gpuvalue.theme';

export function storedTheme() {
  const v = readSetting(THEME_KEY);
  return v === 'light' || v === 'dark' ? v : 'auto';
}

export function applyTheme(choice) {
  const root = document.documentElement;
  if (choice === 'light' || choice === 'dark') root.dataset.theme = choice;
  else delete root.dataset.theme;
  // Where storage is blocked the choice lasts for this page only.
  writeSetting(THEME_KEY, choice === 'auto' ? null : choice);
}

export function effectiveTheme(choice) {
  if (choice === 'light' || choice === 'dark') return choice;
  return window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}
