/** Expected-volume choices of an access request (pure data: the browser form imports it too). */
export const EXPECTED_VOLUMES = {
  under_1k: "Under 1,000 calls a day",
  "1k_10k": "1,000–10,000 calls a day",
  "10k_100k": "10,000–100,000 calls a day",
  over_100k: "Over 100,000 calls a day",
} as const;
export type ExpectedVolume = keyof typeof EXPECTED_VOLUMES;
