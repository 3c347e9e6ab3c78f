// The official openai npm client, unmodified, against Idem's base URL (IDEM_BASE_URL/v1).
// Prints one JSON line with what it saw; OpenAiNodeClientTest asserts on it.
import OpenAI from "openai";

const client = new OpenAI({
  baseURL: `${process.env.IDEM_BASE_URL}/v1`,
  apiKey: process.env.IDEM_API_KEY,
  maxRetries: 0,
});
const messages = [{ role: "user", content: "hi there" }];
const out = {};

// 1. A plain call.
const plain = await client.chat.completions.create({ model: "fake-chat-a", messages });
out.plain = { content: plain.choices[0].message.content, model: plain.model, usage: plain.usage };

// 2. A streaming call that fails over before its first token; Idem's fields ride along as extra body.
const { data: stream, response } = await client.chat.completions
  .create({
    model: "fake-chat-a",
    messages,
    stream: true,
    stream_options: { include_usage: true },
    fallback_models: ["fake-chat-b"],
    simulate: { "fake-chat-a": "http_503" },
  })
  .withResponse();
let text = "";
let usage = null;
let served = null;
for await (const chunk of stream) {
  text += chunk.choices[0]?.delta?.content ?? "";
  if (chunk.usage) usage = chunk.usage;
  if (chunk.idem?.served_model) served = chunk.idem.served_model;
}
out.stream = { text, usage, served, header: response.headers.get("idem-served-model") };

// 3. Every model failing is an APIError the SDK raises with Idem's status and code.
try {
  await client.chat.completions.create({
    model: "fake-chat-a",
    messages,
    fallback_models: ["fake-chat-b"],
    simulate: { "fake-chat-a": "http_503", "fake-chat-b": "http_503" },
  });
  out.allFailed = { raised: false };
} catch (e) {
  out.allFailed = { raised: e instanceof OpenAI.APIError, status: e.status, code: e.code ?? e.error?.code };
}

// 4. A stream broken after its first token raises in the middle of iteration, never ends cleanly.
let seen = "";
try {
  const broken = await client.chat.completions.create({
    model: "fake-chat-a",
    messages,
    stream: true,
    simulate: { "fake-chat-a": "stream_cut:2" },
  });
  for await (const chunk of broken) {
    seen += chunk.choices[0]?.delta?.content ?? "";
  }
  out.broken = { raised: false, seen };
} catch (e) {
  out.broken = { raised: true, name: e.constructor.name, message: String(e.message), seen };
}

// 5. The models the key may use: the list (paged by the SDK), one model, and an unknown one.
const ids = [];
for await (const model of client.models.list()) ids.push(model.id);
const one = await client.models.retrieve("fake-chat-b");
out.models = { ids, one: { id: one.id, object: one.object, owned_by: one.owned_by } };
try {
  await client.models.retrieve("no-such-model");
  out.models.unknown = { raised: false };
} catch (e) {
  out.models.unknown = { raised: e instanceof OpenAI.NotFoundError, status: e.status, code: e.code };
}

// 6. Tool calls: a plain answer, a stream merged by the SDK's own helper, and the tool's result sent back.
const tools = [
  {
    type: "function",
    function: { name: "get_weather", parameters: { type: "object", properties: { text: { type: "string" } } } },
  },
];
const called = await client.chat.completions.create({
  model: "fake-chat-a",
  messages,
  tools,
  tool_choice: "auto",
  simulate: { "fake-chat-a": "tool_call:get_weather" },
});
const call = called.choices[0].message.tool_calls?.[0];
const runner = client.chat.completions.stream({
  model: "fake-chat-a",
  messages,
  tools,
  simulate: { "fake-chat-a": "tool_call:get_weather" },
});
const merged = await runner.finalChatCompletion();
const answered = await client.chat.completions.create({
  model: "fake-chat-a",
  tools,
  messages: [
    ...messages,
    { role: "assistant", content: null, tool_calls: [call] },
    { role: "tool", tool_call_id: call.id, content: "22C and sunny" },
  ],
});
out.tools = {
  plain: { finish: called.choices[0].finish_reason, name: call?.function?.name, arguments: call?.function?.arguments },
  stream: {
    finish: merged.choices[0].finish_reason,
    name: merged.choices[0].message.tool_calls?.[0]?.function?.name,
    arguments: merged.choices[0].message.tool_calls?.[0]?.function?.arguments,
  },
  answered: answered.choices[0].message.content,
};

console.log(JSON.stringify(out));
