// The CLI's number options that set a request member take their bounds from the engine's request tables (through
// the request schemas the engine writes, data/schema/<method>.request.schema.json): at each command, each bound the
// engine states is where the CLI accepts and, one step past it, refuses. The schemas here are the ones the built
// engine writes now, so a stale committed schema, or a bound written into an option's row, fails this test.
import test from 'node:test';
import assert from 'node:assert/strict';
import { OPTIONS, parseCommand, memberSchema, schemaBounds, methodOf, methodsOf, optionBounds, UsageError } from '../../bin/cli/options.mjs';
import { generateSchemas } from '../../scripts/schemas.mjs';

const schemas = Object.fromEntries(Object.entries(await generateSchemas()).map(([name, text]) => [name, JSON.parse(text)]));
const requestSchema = (method) => schemas[`${method}.request.schema.json`];

// Number options whose name is a member of a command's request but which the CLI reads in its own meaning.
const OWN_MEANING = {
  limit: 'the CLI counts the rows it prints; the engine\'s 0 (all) is what leaving --limit out means',
};

const numberOptions = Object.entries(OPTIONS).filter(([, o]) => o.type === 'number' || o.type === 'integer');

// [command, option, engine bounds, type] for every command taking an option that sets a request member: the bounds
// of the first method the command sends it to whose table has the member.
function engineCases() {
  const cases = [];
  for (const [name, o] of numberOptions) {
    if (!o.member) continue;
    for (const cmd of o.commands) {
      const p = (o.of ? [o.of] : methodsOf(cmd)).map((m) => requestSchema(m) && memberSchema(requestSchema(m), o.member)).find(Boolean);
      assert.ok(p, `${cmd} --${name}: no request table of the methods it goes to has ${o.member}`);
      cases.push([cmd, name, schemaBounds(p), o.type]);
    }
  }
  return cases;
}

function accepts(cmd, name, value) {
  try {
    parseCommand(cmd, [`--${name}=${value}`]);
    return true;
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    return false;
  }
}

const stepAbove = (v, type) => (type === 'integer' ? v + 1 : v + 1e-9 * Math.max(1, Math.abs(v)));
const stepBelow = (v, type) => (type === 'integer' ? v - 1 : v - 1e-9 * Math.max(1, Math.abs(v)));

test('an option that sets a request member is accepted at the engine\'s bounds and refused one step past them', () => {
  const cases = engineCases();
  assert.ok(cases.length >= 30, `only ${cases.length} command × option pairs`);
  const wrong = [];
  for (const [cmd, name, b, type] of cases) {
    const check = (value, want) => {
      if (accepts(cmd, name, value) !== want) wrong.push(`${cmd} --${name}=${value}: the CLI ${want ? 'refuses' : 'accepts'} it, the engine ${want ? 'accepts' : 'refuses'} it`);
    };
    assert.ok(b.min !== undefined || b.max !== undefined, `${cmd} --${name}: the engine states no bound`);
    if (b.min !== undefined) check(b.min, !b.minExclusive), check(stepBelow(b.min, type), false);
    if (b.max !== undefined) check(b.max, !b.maxExclusive), check(stepAbove(b.max, type), false);
    assert.deepEqual(optionBounds(cmd, name), b, `${cmd} --${name}`);
  }
  assert.equal(wrong.join('\n'), '');
});

test('a refused number names the engine\'s range', () => {
  assert.throws(() => parseCommand('tco', ['--utilisation', '0']), /--utilisation must be a decimal number > 0 and <= 1/);
  assert.throws(() => parseCommand('energy', ['--pue', '6']), /--pue must be a decimal number >= 1 and <= 5/);
  assert.doesNotThrow(() => parseCommand('energy', ['--utilisation', '0']));
  // tco sends --hours to energy, whose hours must be above 0 (cost's may be 0).
  assert.throws(() => parseCommand('tco', ['--hours', '0']), /--hours must be a decimal number > 0 and <= 10000000/);
  assert.doesNotThrow(() => parseCommand('cost', ['--hours', '0']));
  assert.throws(() => parseCommand('serve', ['--percentile', '100']), /--percentile must be a decimal number > 0 and < 100/);
});

test('member options state no bounds of their own, and the other number options set no request member', () => {
  for (const [name, o] of numberOptions) {
    if (o.member) {
      assert.ok(o.min === undefined && o.max === undefined && o.minExclusive === undefined, `--${name} sets ${o.member}: its bounds are the engine's`);
      continue;
    }
    const member = name.replace(/-/g, '_');
    const named = o.commands.filter((cmd) => requestSchema(methodOf(cmd))?.properties?.[member]);
    if (named.length) assert.ok(OWN_MEANING[name], `--${name} is a member of ${named.join(', ')}'s request: give its row member: '${member}'`);
  }
  for (const name of Object.keys(OWN_MEANING)) assert.ok(OPTIONS[name] && !OPTIONS[name].member, `--${name} is listed as having a meaning of its own`);
});
