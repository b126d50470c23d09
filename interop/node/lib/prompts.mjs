// The prompt checks: prompts, prompt-simple, prompt-args, prompt-missing,
// complete.
import { describeError, missing, step } from './util.mjs';
import { mark, request, rpcError } from './look.mjs';
import { checkListing, skipNoCapability, skipUnlistedItem } from './resources.mjs';

const SIMPLE_PROMPT = 'test_simple_prompt';
const ARGS_PROMPT = 'test_prompt_with_arguments';
const REVIEW_PROMPT = 'deployment_review';
const REVIEW_ARGUMENT = 'environment';
// PROMPT_ARGS are the values prompt-args sends: one plain, one with
// characters an encoder could mangle.
const PROMPT_ARGS = { arg1: 'testValue1', arg2: 'wért "2" ✓' };
// What completing deployment_review's environment from "" must and must not
// offer a caller that is no operator.
const COMPLETE_WANT = ['development', 'staging'];
const COMPLETE_NOT = 'production';

export async function checkPrompts(x) {
  if (skipNoCapability(x, 'prompts', 'prompts')) return;
  x.prompts = await checkListing(x, 'prompts', 'prompts', [SIMPLE_PROMPT, ARGS_PROMPT], 2, (byKey) => {
    const p = byKey.get(ARGS_PROMPT);
    for (const a of ['arg1', 'arg2']) {
      if (!p.arguments?.some((arg) => arg.name === a && arg.required === true)) return `${ARGS_PROMPT} does not list ${a} as a required argument: ${JSON.stringify(p).slice(0, 300)}`;
    }
    return '';
  });
}

async function getPrompt(x, name, args) {
  return step(x.adapter.getPrompt(name, args), `prompts/get ${name}`);
}

// messagesProblem checks that there are messages, each with a role and a
// content block.
function messagesProblem(res) {
  const msgs = res?.messages ?? [];
  if (msgs.length === 0) return 'no messages';
  for (const [i, m] of msgs.entries()) {
    if (m.role !== 'user' && m.role !== 'assistant') return `message ${i} has role ${JSON.stringify(m.role)}: ${JSON.stringify(m).slice(0, 300)}`;
    if (!m.content?.type) return `message ${i} has no content type: ${JSON.stringify(m).slice(0, 300)}`;
  }
  return '';
}

function texts(res) {
  return res.messages.filter((m) => m.content.type === 'text').map((m) => m.content.text);
}

export async function checkPromptSimple(x) {
  const check = 'prompt-simple';
  if (skipUnlistedItem(x, check, x.prompts, SIMPLE_PROMPT)) return;
  let res;
  try {
    res = await getPrompt(x, SIMPLE_PROMPT, undefined);
  } catch (err) {
    x.r.fail(check, describeError(err));
    return;
  }
  const problem = messagesProblem(res);
  const t = problem ? [] : texts(res);
  if (problem) x.r.fail(check, problem);
  else if (!t[0]) x.r.fail(check, `no non-empty text message: ${JSON.stringify(res.messages[0]).slice(0, 300)}`);
  else x.r.pass(check, `${res.messages.length} message(s), role ${res.messages[0].role}: ${JSON.stringify(t[0])}`);
}

export async function checkPromptArgs(x) {
  const check = 'prompt-args';
  if (skipUnlistedItem(x, check, x.prompts, ARGS_PROMPT)) return;
  let res;
  try {
    res = await getPrompt(x, ARGS_PROMPT, PROMPT_ARGS);
  } catch (err) {
    x.r.fail(check, describeError(err));
    return;
  }
  const problem = messagesProblem(res);
  if (problem) {
    x.r.fail(check, problem);
    return;
  }
  const all = texts(res).join('\n');
  const lacks = Object.entries(PROMPT_ARGS).find(([, v]) => !all.includes(v));
  if (lacks) x.r.fail(check, `the messages do not contain ${lacks[0]} ${JSON.stringify(lacks[1])}: ${JSON.stringify(all)}`);
  else x.r.pass(check, `both values back byte-identical: ${JSON.stringify(all)}`);
}

export async function checkPromptMissing(x) {
  const check = 'prompt-missing';
  if (skipUnlistedItem(x, check, x.prompts, ARGS_PROMPT)) return;
  const from = mark(x);
  let res;
  try {
    res = await getPrompt(x, ARGS_PROMPT, { arg1: PROMPT_ARGS.arg1 });
  } catch (err) {
    const req = request(x, from, 'prompts/get', (p) => p.name === ARGS_PROMPT);
    if (!req) {
      x.r.fail(check, `no prompts/get on the wire; the SDK said ${describeError(err)}`);
      return;
    }
    const { detail, problem } = rpcError(x, req, err, -32602);
    if (problem) x.r.fail(check, problem);
    else x.r.pass(check, `without arg2: ${detail}`);
    return;
  }
  x.r.fail(check, `the SDK returned ${res?.messages?.length} messages without the required arg2; want a JSON-RPC error -32602`);
}

export async function checkComplete(x) {
  const check = 'complete';
  if (skipNoCapability(x, check, 'completions') || skipUnlistedItem(x, check, x.prompts, REVIEW_PROMPT)) return;
  let res;
  try {
    res = await step(x.adapter.complete(REVIEW_PROMPT, REVIEW_ARGUMENT, ''), 'completion/complete');
  } catch (err) {
    x.r.fail(check, describeError(err));
    return;
  }
  const c = res?.completion ?? {};
  const values = c.values ?? [];
  const lacks = missing(values, COMPLETE_WANT);
  if (lacks.length) x.r.fail(check, `values ${JSON.stringify(values)} lack ${lacks}`);
  else if (values.includes(COMPLETE_NOT)) x.r.fail(check, `values ${JSON.stringify(values)} offer ${COMPLETE_NOT} to a caller that is no operator`);
  else x.r.pass(check, `${REVIEW_PROMPT}.${REVIEW_ARGUMENT} from "": ${JSON.stringify(values)} (total ${c.total ?? 0}, hasMore ${c.hasMore ?? false}), no ${COMPLETE_NOT} for a caller that is no operator`);
}
