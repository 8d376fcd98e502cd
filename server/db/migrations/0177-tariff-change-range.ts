import { sql, type Kysely } from 'kysely'

/**
 * A tariff change recomputes the rollups' high/low split (migration 0061) only from the first day whose
 * tariff in force it changes. 0061 started at the old `valid_from` of any updated version: saving a
 * version from tomorrow ends the one in force the day before, an update of that version's `valid_to`
 * only, and so rebuilt every rollup since the version began (the demo's: the whole history, 50 s on the
 * embedded database, every request waiting). Which days change:
 * - a new or deleted version: from its `valid_from`;
 * - a version moved to another installation: both installations from its `valid_from`;
 * - a changed schedule or `valid_from`: from the earlier of the old and new `valid_from`;
 * - only `valid_to` moved: from the day after the earlier of the old and new end (open = never).
 * Prices alone change no rollup (the split does not depend on them), as before.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE OR REPLACE FUNCTION tariffs_rollup_retariff() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        PERFORM measurements_rollup_retariff(NEW.installation_id, NEW.valid_from);
        RETURN NULL;
      END IF;
      IF TG_OP = 'DELETE' THEN
        PERFORM measurements_rollup_retariff(OLD.installation_id, OLD.valid_from);
        RETURN NULL;
      END IF;
      -- A form that saves every field (a price edit) changes nothing stored.
      IF (OLD.schedule, OLD.valid_from, OLD.valid_to, OLD.installation_id)
          IS NOT DISTINCT FROM (NEW.schedule, NEW.valid_from, NEW.valid_to, NEW.installation_id) THEN
        RETURN NULL;
      END IF;
      IF NEW.installation_id <> OLD.installation_id THEN
        PERFORM measurements_rollup_retariff(OLD.installation_id, OLD.valid_from);
        PERFORM measurements_rollup_retariff(NEW.installation_id, NEW.valid_from);
      ELSIF OLD.schedule IS DISTINCT FROM NEW.schedule OR OLD.valid_from IS DISTINCT FROM NEW.valid_from THEN
        PERFORM measurements_rollup_retariff(NEW.installation_id, LEAST(OLD.valid_from, NEW.valid_from));
      ELSE
        PERFORM measurements_rollup_retariff(NEW.installation_id,
          LEAST(COALESCE(OLD.valid_to, 'infinity'::date), COALESCE(NEW.valid_to, 'infinity'::date)) + 1);
      END IF;
      RETURN NULL;
    END $$`.execute(db)
}

/** Back to 0061's function: every update recomputes from the old `valid_from`. */
export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE OR REPLACE FUNCTION tariffs_rollup_retariff() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'UPDATE' AND (OLD.schedule, OLD.valid_from, OLD.valid_to, OLD.installation_id)
          IS NOT DISTINCT FROM (NEW.schedule, NEW.valid_from, NEW.valid_to, NEW.installation_id) THEN
        RETURN NULL;
      END IF;
      IF TG_OP IN ('UPDATE', 'DELETE') THEN PERFORM measurements_rollup_retariff(OLD.installation_id, OLD.valid_from); END IF;
      IF TG_OP IN ('UPDATE', 'INSERT') AND (TG_OP = 'INSERT' OR NEW.installation_id <> OLD.installation_id OR NEW.valid_from < OLD.valid_from) THEN
        PERFORM measurements_rollup_retariff(NEW.installation_id, NEW.valid_from);
      END IF;
      RETURN NULL;
    END $$`.execute(db)
}
