// Decision-tool panels (issue 6, second half): advisor, cluster planner, MIG partitioning, cost levers,
// scenarios, energy/TCO. Their engine functions are being written (engine-client wrappers advise, plan,
// mig, levers, compare, energy). Nothing is shown until a panel is registered here, so the page never
// presents placeholder numbers.
//
// A panel is { id, titleKey, available(engine) -> bool, render(container, ctx) }:
//   - titleKey: an i18n key (add it to both dictionaries in i18n.js);
//   - available: whether the loaded wasm module has the method, e.g. (client) => typeof client.engine.advise === 'function'
//     (the EngineClient wrapper exists before the wasm function does);
//   - render: fills `container` (a <section> with the panel's heading already in it) using
//     ctx = { engine, state, request (the rank request of the current view), result (engine.rank output),
//             rows (results in table order), selected (row shown in the details panel), compared (rows),
//             t, fmt (format.js), update(patch), select(key) }.
//     Render every engine or catalog string as text (dom.js h/engineText), never as HTML.
// Panels are rendered after every update (also a new selection), below the comparison, in the order of
// TOOL_PANELS; cache slow engine calls on JSON.stringify(ctx.request) inside the panel.
import { h, tx } from './dom.js';

export const TOOL_PANELS = [
  // { id: 'advisor', titleKey: 'toolAdvisor', available: (c) => typeof c.engine.advise === 'function', render: renderAdvisor },
  // { id: 'planner', titleKey: 'toolPlanner', ... }, { id: 'mig', ... }, { id: 'levers', ... },
  // { id: 'scenarios', ... }, { id: 'energy', ... }
];

export function renderTools(container, ctx) {
  const panels = TOOL_PANELS.filter((p) => { try { return p.available(ctx.engine); } catch { return false; } });
  container.hidden = panels.length === 0;
  container.replaceChildren(...panels.map((p) => {
    const section = h('section', { class: 'panel tool', id: `tool-${p.id}`, 'aria-labelledby': `tool-${p.id}-title` },
      tx('h2', ctx.t, p.titleKey, { id: `tool-${p.id}-title` }));
    try {
      p.render(section, ctx);
    } catch (e) {
      section.append(h('p', { class: 'error', role: 'alert' }, `${ctx.t('engineError')}: ${e.message || e}`));
    }
    return section;
  }));
}
