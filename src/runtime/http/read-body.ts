import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { pipeline, type Readable } from 'node:stream';
import { MAX_BODY_BYTES } from './limits.js';

/** Thrown when a body is larger than the limit; the transport turns it into `AUTH_NETWORK`. */
export class BodyTooLargeError extends Error {
  readonly code = 'UND_ERR_RES_EXCEEDED_MAX_SIZE';
}

/**
 * Reads a response body as UTF-8 text, decoding `gzip`, `deflate` and `br` content encodings.
 * A plain body is read in one go (its size is capped by the dispatcher's `maxResponseSize`); a
 * decoded one is counted here, and more than `limit` bytes is a {@link BodyTooLargeError}.
 *
 * @example
 * const text = await readBodyText(response.body, 'gzip');
 */
export function readBodyText(
  body: Readable & { text?: () => Promise<string> },
  contentEncoding: string | undefined,
  limit = MAX_BODY_BYTES,
): Promise<string> {
  const decoder = decoderFor(contentEncoding);
  // Not async itself: the plain body of every sign-in spares a promise.
  if (!decoder && body.text) return body.text();
  return readChunks(body, decoder, limit).then((bytes) => new TextDecoder('utf-8').decode(bytes));
}

/**
 * Reads a response body as bytes, decoding `gzip`, `deflate` and `br` content encodings, and
 * counting every byte here (the decoded ones too): more than `limit` is a {@link BodyTooLargeError},
 * raised as soon as the limit is passed, so an endless body costs `limit` bytes, no more.
 *
 * @example
 * const page = await readBodyBytes(response.body, 'br', 5 * 1024 * 1024);
 */
export function readBodyBytes(body: Readable, contentEncoding: string | undefined, limit = MAX_BODY_BYTES): Promise<Buffer> {
  return readChunks(body, decoderFor(contentEncoding), limit);
}

async function readChunks(body: Readable, decoder: ReturnType<typeof decoderFor>, limit: number): Promise<Buffer> {
  // pipeline() carries an error of either side to the stream we read.
  const stream = decoder ? pipeline(body, decoder, () => {}) : body;
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limit) throw new BodyTooLargeError(`response body larger than ${limit} bytes`);
      chunks.push(chunk);
    }
  } finally {
    if (!body.destroyed) body.destroy();
    if (decoder && !decoder.destroyed) decoder.destroy();
  }
  return Buffer.concat(chunks);
}

function decoderFor(encoding: string | undefined) {
  switch (encoding?.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return createGunzip();
    case 'deflate':
      return createInflate();
    case 'br':
      return createBrotliDecompress();
    default:
      return undefined;
  }
}
