// Re-running a render step only when what it reads changed. A step declares its inputs once, next to it: a
// function that returns the values it reads, each a primitive (compared by value; serialise an object with
// JSON.stringify to compare it by content) or an object compared by identity (a view, a DOM element). The step
// then receives exactly those values, so what it draws cannot depend on something missing from its inputs.
export function memoStep(inputs, run) {
  let last = null;
  const step = (arg) => {
    const now = inputs(arg);
    if (last && now.length === last.length && now.every((v, i) => Object.is(v, last[i]))) return false;
    last = now;
    run(arg, ...now);
    return true;
  };
  // Forgets the last inputs: the next call runs the step.
  step.reset = () => { last = null; };
  return step;
}
