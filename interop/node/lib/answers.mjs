// What the client answers when the server asks it something, the same as
// the Go scenario's answers.go. An adapter registers its SDK's sampling,
// elicitation and roots handlers, each passing the request to the methods
// of the Answers it was given and returning what they give; the counts let
// a check tell that the SDK's own handler answered.

export const SAMPLED_REPLY = 'interop sampled reply';
export const SAMPLED_MODEL = 'interop-model';
export const ROOT_URI = 'file:///interop';
export const ROOT_NAME = 'interop';
// What an accepted form gives fields called name and color (the
// multi-round tool asks for both).
export const ANSWER_NAME = 'Interop';
export const ANSWER_COLOR = 'teal';

export class Answers {
  constructor() {
    this.calls = { sampling: [], elicitation: [], roots: [] };
  }

  // elicit answers an elicitation/create form: it declines when the
  // message mentions "decline", and otherwise accepts with a value for
  // every property of requestedSchema. content is undefined when declined.
  elicit(message, requestedSchema) {
    this.calls.elicitation.push(message);
    return elicitAnswer(message, requestedSchema);
  }

  // sample answers sampling/createMessage with the text of an assistant
  // message and the model that wrote it.
  sample(messages) {
    this.calls.sampling.push(JSON.stringify(messages).slice(0, 120));
    return { text: SAMPLED_REPLY, model: SAMPLED_MODEL };
  }

  // roots answers roots/list.
  roots() {
    this.calls.roots.push('');
    return [{ uri: ROOT_URI, name: ROOT_NAME }];
  }

  count(kind) {
    return this.calls[kind].length;
  }
}

export function elicitAnswer(message, requestedSchema) {
  if (String(message).toLowerCase().includes('decline')) return { action: 'decline' };
  const props = requestedSchema?.properties ?? {};
  const content = {};
  for (const name of Object.keys(props).sort()) content[name] = fieldValue(name, props[name] ?? {});
  return { action: 'accept', content };
}

// fieldValue is the value an accepted form gives one property: its
// default, its first allowed value, or a plain value of its type.
function fieldValue(name, p) {
  if (p.default !== undefined && p.default !== null) return p.default;
  if (p.enum?.length) return p.enum[0];
  if (p.oneOf?.length) return p.oneOf[0].const;
  if (p.anyOf?.length) return p.anyOf[0].const;
  switch (p.type) {
    case 'number':
    case 'integer':
      return typeof p.minimum === 'number' && p.minimum > 42 ? p.minimum : 42;
    case 'boolean':
      return true;
    case 'array':
      if (p.items?.enum?.length) return [p.items.enum[0]];
      if (p.items?.anyOf?.length) return [p.items.anyOf[0].const];
      return [];
  }
  switch (p.format) {
    case 'email':
      return 'interop@example.com';
    case 'uri':
      return 'https://example.com/interop';
    case 'date':
      return '2026-07-28';
    case 'date-time':
      return '2026-07-28T00:00:00Z';
  }
  if (name === 'name') return ANSWER_NAME;
  if (name === 'color') return ANSWER_COLOR;
  return `interop ${name}`;
}
