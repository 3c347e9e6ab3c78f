// The official openai npm client, unmodified and with its default retries (maxRetries 2), against
// failing and slow providers behind Idem. Each scenario uses its own API key (IDEM_KEY_<NAME>) so
// OpenAiNodeRetriesTest can count the jobs, chat calls and vendor calls it caused.
// Prints one JSON line with how each call ended.
import OpenAI from "openai";

const baseURL = `${process.env.IDEM_BASE_URL}/v1`;
const messages = [{ role: "user", content: "hi there" }];

async function outcome(call) {
  try {
    const value = await call();
    return { ok: true, value };
  } catch (e) {
    return { ok: false, name: e.constructor.name, status: e.status ?? null, code: e.code ?? e.error?.code ?? null };
  }
}

const out = {};

// 1. One images.generate() against two failing providers, default settings.
const images = new OpenAI({ baseURL, apiKey: process.env.IDEM_KEY_IMAGES_FAILING });
out.imagesFailing = await outcome(() =>
  images.images.generate({
    prompt: "retries: both providers fail",
    simulate: { primary: "http_503", backup: "http_503" },
  }).then((r) => r.data.length),
);

// 2. One images.generate() whose generation takes 6 s, with a 3 s client timeout.
const impatientImages = new OpenAI({ baseURL, apiKey: process.env.IDEM_KEY_IMAGES_SLOW, timeout: 3000 });
out.imagesSlow = await outcome(() =>
  impatientImages.images.generate({
    prompt: "retries: a slow generation",
    simulate: { primary: "slow:6000" },
  }).then((r) => r.data.length),
);

// 3. One chat create() whose every model fails, default settings.
const chat = new OpenAI({ baseURL, apiKey: process.env.IDEM_KEY_CHAT_FAILING });
out.chatFailing = await outcome(() =>
  chat.chat.completions.create({
    model: "fake-chat-a",
    messages,
    fallback_models: ["fake-chat-b"],
    // Idem's own retry of an unbilled 503 is not what this checks: the SDK's retries are
    redundancy: { retries: 0 },
    simulate: { "fake-chat-a": "http_503", "fake-chat-b": "http_503" },
  }).then((r) => r.choices[0].message.content),
);

// 4. One chat create() whose model takes 6 s, with a 3 s client timeout.
const impatientChat = new OpenAI({ baseURL, apiKey: process.env.IDEM_KEY_CHAT_SLOW, timeout: 3000 });
out.chatSlow = await outcome(() =>
  impatientChat.chat.completions.create({
    model: "fake-chat-a",
    messages,
    simulate: { "fake-chat-a": "slow:6000" },
  }).then((r) => r.choices[0].message.content),
);

console.log(JSON.stringify(out));
