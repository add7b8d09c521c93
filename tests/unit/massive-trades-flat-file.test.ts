/**
 * The trades day file reader (lib/market/massive/trades-flat-file.ts): lines and CSV fields whatever the chunk
 * boundaries, the fixture day file (fixtures/massive/flat-files/…/2024-03-07.csv.gz, the documented columns) read in
 * small chunks, nanosecond timestamps kept exact through to the trade id, and a broken file refused whole.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { Readable } from "node:stream";
import { gzipSync } from "node:zlib";
import { csvFields, readTradesFlatFile, textLines, tradesFlatFileKey } from "../../lib/market/massive/trades-flat-file";
import { tradeRows } from "../../lib/market/massive/map";
import { VendorError } from "../../lib/market/massive/client";
import { dayWindowNs } from "../../lib/market/massive/trade-contracts";
import { signS3Get } from "../../lib/market/massive/s3-sigv4";
import { flatFileUrl } from "../../lib/market/massive/flat-file-download";

const FIXTURE = readFileSync("fixtures/massive/flat-files/us_options_opra/trades_v1/2024/03/2024-03-07.csv.gz");
const filter = { symbols: new Set(["AAPL", "SPY"]), window: dayWindowNs("2024-03-07") };

/** The bytes as a stream of `size`-byte chunks. */
function chunked(bytes: Buffer, size: number): Readable {
  const parts: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) parts.push(bytes.subarray(i, i + size));
  return Readable.from(parts);
}

async function collect(lines: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const l of lines) out.push(l);
  return out;
}

test("the object key follows the bucket's layout; the URL is path-style on the endpoint", () => {
  assert.equal(tradesFlatFileKey("2024-03-07"), "us_options_opra/trades_v1/2024/03/2024-03-07.csv.gz");
  assert.equal(
    flatFileUrl("https://files.massive.com", tradesFlatFileKey("2024-03-07")).href,
    "https://files.massive.com/flatfiles/us_options_opra/trades_v1/2024/03/2024-03-07.csv.gz",
  );
});

test("the S3 signature matches AWS's documented GET Object example (Signature Version 4, header form)", () => {
  // https://docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-header-based-auth.html, "Example: GET Object".
  const headers = signS3Get(
    new URL("https://examplebucket.s3.amazonaws.com/test.txt"),
    {
      accessKeyId: "AKIAIOSFODNN7EXAMPLE",
      secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
      region: "us-east-1",
    },
    new Date("2013-05-24T00:00:00Z"),
    { Range: "bytes=0-9" },
  );
  assert.deepEqual(headers, {
    range: "bytes=0-9",
    "x-amz-content-sha256": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "x-amz-date": "20130524T000000Z",
    authorization:
      "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request," +
      "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date," +
      "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41",
  });
});

test("lines split the same whatever the chunk boundaries (CRLF, a split UTF-8 character, no final newline)", async () => {
  const text = 'ticker,conditions\r\nO:A,"209,219"\nnamé,1\n\nlast';
  const expected = ["ticker,conditions", 'O:A,"209,219"', "namé,1", "", "last"];
  for (const size of [1, 2, 3, 5, 7, 64]) {
    assert.deepEqual(await collect(textLines(chunked(Buffer.from(text), size))), expected, `chunks of ${size}`);
  }
});

test("CSV fields: quoted commas and quotes, empty fields; an unterminated quote is refused", () => {
  assert.deepEqual(csvFields('O:AAPL240315C00170000,"209,219",0,302,,17,1.6'), [
    "O:AAPL240315C00170000",
    "209,219",
    "0",
    "302",
    "",
    "17",
    "1.6",
  ]);
  assert.deepEqual(csvFields('a,"say ""hi""",'), ["a", 'say "hi"', ""]);
  assert.deepEqual(csvFields(""), [""]);
  assert.equal(csvFields('a,"open'), null);
  assert.equal(csvFields('a,"x"y'), null);
});

test("the fixture day file read in small chunks: kept prints, skips by reason, exact nanoseconds", async () => {
  const whole = await readTradesFlatFile(chunked(FIXTURE, FIXTURE.length), filter);
  for (const size of [1, 5, 13]) {
    const read = await readTradesFlatFile(chunked(FIXTURE, size), filter);
    assert.deepEqual(read, whole, `gzip in chunks of ${size} bytes`);
  }
  assert.equal(whole.read, 12);
  assert.deepEqual(whole.skipped, {
    "underlying not configured": 1,
    "contract ticker does not parse": 1,
    "SIP time outside the file's date": 1,
  });
  assert.deepEqual(
    [...whole.trades].map(([s, list]) => [s, list.length]),
    [
      ["AAPL", 6],
      ["SPY", 3],
    ],
  );
  const first = whole.trades.get("AAPL")?.[0];
  assert.deepEqual(first, {
    ticker: "O:AAPL240315C00170000",
    conditions: [209],
    exchange: 312,
    price: 1.55,
    size: 10,
    sip_timestamp: "1709823600123456789",
    sequence_number: "1001",
  });
  assert.deepEqual(whole.trades.get("AAPL")?.[1].conditions, [232]);
  assert.deepEqual(whole.trades.get("AAPL")?.[2].conditions, [209, 219], "a quoted condition list");
  // The REST mapping takes them from here: the trade id keeps the SIP time to the nanosecond.
  const mapped = tradeRows("AAPL", whole.trades.get("AAPL") ?? [], () => ({ bid: 1, ask: 1.2 }));
  assert.equal(mapped.rows[0].tradeId, "O:AAPL240315C00170000:1709823600123456789:1001");
  assert.equal(mapped.rows[0].ts.toISOString(), "2024-03-07T15:00:00.123Z");
  assert.deepEqual(
    mapped.rows.map((r) => r.condition),
    ["", "MLET", "ISOI", "", ""],
    "regular, multi-leg, ISO, the correction (read like any print), and the contract the stub quotes",
  );
  assert.deepEqual(mapped.skipped, { "price not positive": 1 });
});

async function refused(bytes: Buffer, pattern: RegExp) {
  await assert.rejects(readTradesFlatFile(chunked(bytes, 7), filter), (err: unknown) => {
    assert.ok(err instanceof VendorError && err.failure === "malformed", String(err));
    assert.match((err as Error).message, pattern);
    return true;
  });
}

test("a truncated or corrupt gzip, a missing column or a short line fails the whole read", async () => {
  await refused(FIXTURE.subarray(0, FIXTURE.length - 12), /unreadable after line \d+: unexpected end of file/);
  const corrupt = Buffer.from(FIXTURE);
  for (let i = 40; i < 60; i++) corrupt[i] ^= 0xff;
  await refused(corrupt, /unreadable after line \d+/);
  await refused(gzipSync("ticker,price\nO:AAPL240315C00170000,1\n"), /the header has no "conditions" column/);
  const header =
    "ticker,conditions,correction,exchange,id,participant_timestamp,price,sequence_number,sip_timestamp,size";
  await refused(gzipSync(`${header}\nO:AAPL240315C00170000,209,0\n`), /line 2 does not have the header's 10 fields/);
  await refused(Buffer.alloc(0), /empty|unreadable/);
});
