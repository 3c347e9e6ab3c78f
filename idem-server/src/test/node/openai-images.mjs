// The official openai npm client, unmodified, generates and edits images through Idem
// (IDEM_BASE_URL/v1). Prints one JSON line with what it saw; OpenAiNodeImagesTest asserts on it.
import OpenAI, { toFile } from "openai";

const client = new OpenAI({
  baseURL: `${process.env.IDEM_BASE_URL}/v1`,
  apiKey: process.env.IDEM_API_KEY,
  maxRetries: 0,
});
const out = {};

// 1. A generation naming quality and style.
const generated = await client.images
  .generate({ prompt: "a red fox", quality: "high", style: "vivid", response_format: "b64_json" })
  .withResponse();
out.generate = {
  images: generated.data.data.length,
  b64: (generated.data.data[0].b64_json ?? "").length > 0,
  job: generated.response.headers.get("idem-job-id"),
};

// 2. An edit of one PNG file (a 1x1 pixel), with a quality.
const png = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);
const edited = await client.images
  .edit({ image: await toFile(png, "fox.png", { type: "image/png" }), prompt: "add a hat", quality: "low" })
  .withResponse();
out.edit = {
  images: edited.data.data.length,
  url: edited.data.data[0].url ?? null,
  job: edited.response.headers.get("idem-job-id"),
};

// 3. A quality no one knows is Idem's 400, raised by the client with the field's code.
try {
  await client.images.generate({ prompt: "a red fox", quality: "ultra" });
  out.bad = { raised: false };
} catch (e) {
  out.bad = { raised: true, status: e.status, code: e.code };
}

console.log(JSON.stringify(out));
