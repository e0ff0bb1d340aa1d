// The browser's localStorage for the page's small settings (language, theme) and its stored catalogs' list
// (app/saved.js). Reading the property throws where storage is blocked (cookies off, some private modes): then
// there is none, and a setting lasts for this page only. Nothing here ever throws.
export function browserStorage() {
  try { return (globalThis.window || globalThis).localStorage || null; } catch { return null; }
}

export function readSetting(key) {
  try {
    const s = browserStorage();
    return s ? s.getItem(key) : null;
  } catch {
    return null;
  }
}

// Stores value under key (null removes it); false when storage refused it.
export function writeSetting(key, value) {
  try {
    const s = browserStorage();
    if (!s) return false;
    if (value === null) s.removeItem(key);
    else s.setItem(key, value);
    return true;
  } catch {
    return false;
  }
}
