export const DISCLAIMER =
  "Educational market analysis only, not financial advice. These are the service's own derived analytics, not quotes; " +
  "demo data is synthetic and must never be treated as a live quote. Show this disclaimer to end users; do not re-sell or redistribute raw output.";
