const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Whether year, month (1–12) and day name a real day of the Gregorian calendar: February has 29 days in years
 * divisible by 4, except centuries not divisible by 400. Arithmetic, no Date: the IV history checks every point of
 * every day's window with it.
 */
export function isCalendarDay(year: number, month: number, day: number): boolean {
  if (!Number.isInteger(year) || !Number.isInteger(month) || !Number.isInteger(day)) return false;
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return day <= (month === 2 && leap ? 29 : MONTH_DAYS[month - 1]);
}
