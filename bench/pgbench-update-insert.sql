-- The pgbench equivalent of POST /payin's database work at its core: one transaction that
-- updates one row (the receiver's daily usage) and inserts one row (the order).
-- Tables are created by the runner (bench/lib/pgbench.ts) in the bench database.
\set aid random(1, 100000)
\set delta random(1, 100000)
BEGIN;
UPDATE bench_pgb_accounts SET balance = balance + :delta, updated_at = now() WHERE id = :aid;
INSERT INTO bench_pgb_history (account_id, amount, note) VALUES (:aid, :delta, 'payin');
END;
