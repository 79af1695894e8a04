/**
 * An UPDATE's assignment for a column a caller may leave as it is: `keptUnlessGiven("external_id")`
 * keeps the column when the value is undefined and sets it otherwise (null clears it). Its two
 * parameters are {@link givenParams} of the value.
 */
export const keptUnlessGiven = (column: string): string => `${column} = CASE WHEN ? = 1 THEN ? ELSE ${column} END`;

/** The parameters of {@link keptUnlessGiven}: whether the value is given, and the value. */
export function givenParams<T>(value: T | null | undefined): [given: 0 | 1, value: T | null] {
  return [value === undefined ? 0 : 1, value ?? null];
}
