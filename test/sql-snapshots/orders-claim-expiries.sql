-- orders-claim-expiries: The order worker's expiry sweep: orders awaiting money past expires_at, locked for the transition
select /* planned each run */ "id", "status" from "orders" where "status" in ('AWAITING_PAYMENT', 'AWAITING_DEPOSIT') and "expires_at" <= $1 limit $2 for update skip locked
