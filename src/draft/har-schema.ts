import { z } from 'zod';

/**
 * The part of HAR 1.2 the drafter reads (http://www.softwareishard.com/blog/har-12-spec/), as
 * Playwright (`recordHar`, `codegen --save-har`), Chrome and Firefox write it. Keys the drafter
 * does not read are ignored (browsers add their own `_underscore` keys); what it reads is checked,
 * so a later step never meets a number where it expects a string.
 */

/** A header, cookie, query or form parameter: `{ name, value }`. */
export const HarPair = z.object({ name: z.string(), value: z.string() });
export type HarPair = z.infer<typeof HarPair>;

/** `request.postData`: the body sent, as text or as form parameters. */
export const HarPostData = z.object({
  mimeType: z.string().optional(),
  text: z.string().optional(),
  params: z.array(z.object({ name: z.string(), value: z.string().optional() })).optional(),
});

/** One request as recorded. */
export const HarRequest = z.object({
  method: z.string().min(1),
  url: z.string().min(1),
  headers: z.array(HarPair),
  cookies: z.array(HarPair).optional(),
  postData: HarPostData.optional(),
});

/** One response as recorded; `content.text` may be base64 (`encoding: "base64"`). */
export const HarResponse = z.object({
  status: z.number().int(),
  headers: z.array(HarPair),
  cookies: z.array(HarPair).optional(),
  content: z
    .object({ mimeType: z.string().optional(), text: z.string().optional(), encoding: z.string().optional() })
    .optional(),
  redirectURL: z.string().optional(),
});

/** One exchange of the recording. */
export const HarEntry = z.object({ request: HarRequest, response: HarResponse });
export type HarEntry = z.infer<typeof HarEntry>;

/** A HAR file: `{ "log": { "entries": [...] } }`. */
export const Har = z.object({ log: z.object({ entries: z.array(HarEntry) }) });
export type Har = z.infer<typeof Har>;
