// A client of the argstream gateway, with an official Node SDK: it streams
// one response through the gateway at BASE_URL and prints, as one JSON
// line, what the SDK made of it (its final message) and every event it saw.
//
//   node client.mjs anthropic|openai-chat|openai-responses BASE_URL [TOOLS_JSON]
//
// TOOLS_JSON, for openai-chat, is the request's tools.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';

const [wire, baseURL, toolsJSON] = process.argv.slice(2);
const events = [];
let final;
try {
  if (wire === 'anthropic') {
    const client = new Anthropic({ apiKey: 'test', baseURL, maxRetries: 0 });
    const stream = client.messages.stream({ model: 'claude', max_tokens: 100, messages: [{ role: 'user', content: 'Go.' }] });
    stream.on('streamEvent', (e) => events.push(e));
    const m = await stream.finalMessage();
    final = { content: m.content, stop_reason: m.stop_reason };
  } else if (wire === 'openai-chat') {
    const client = new OpenAI({ apiKey: 'test', baseURL, maxRetries: 0 });
    const tools = toolsJSON ? { tools: JSON.parse(toolsJSON) } : {};
    const stream = client.chat.completions.stream({ model: 'gpt', messages: [{ role: 'user', content: 'Go.' }], ...tools });
    stream.on('chunk', (c) => events.push(c));
    const c = await stream.finalChatCompletion();
    final = { choices: c.choices.map((ch) => ({ index: ch.index, finish_reason: ch.finish_reason, message: { content: ch.message.content, tool_calls: ch.message.tool_calls } })) };
  } else if (wire === 'openai-responses') {
    const client = new OpenAI({ apiKey: 'test', baseURL, maxRetries: 0 });
    const stream = client.responses.stream({ model: 'gpt', input: 'Go.' });
    stream.on('event', (e) => events.push(e));
    const r = await stream.finalResponse();
    final = { output: r.output };
  } else {
    throw new Error('unknown wire ' + wire);
  }
  console.log(JSON.stringify({ final, events }));
} catch (err) {
  console.log(JSON.stringify({ error: String(err && err.message || err), events }));
}
