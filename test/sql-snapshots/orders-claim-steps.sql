-- orders-claim-steps: The order worker's claim of due steps (orders/lifecycle/steps.ts through the lease helper)
/* planned each run */
    with due as (
      select id from "orders"
      where "next_step_at" <= $1 and (("claimed_until" is null or "claimed_until" < $2) or ("claimed_by" is not null and not exists (select 1 from workers w where w.id = "claimed_by" and w.heartbeat_at >= statement_timestamp() - 5000 * interval '1 millisecond')))
      order by "next_step_at", id
      limit $3
      for update skip locked
    )
    update "orders" as claimed set claimed_until = $4, claimed_by = $5
    from due where claimed.id = due.id
    returning "claimed"."id", "claimed"."merchant_id", "claimed"."receiver_id", "claimed"."type", "claimed"."status", "claimed"."chain", "claimed"."token", "claimed"."external_id", "claimed"."amount_brl", "claimed"."amount_token", "claimed"."exchange_rate", "claimed"."platform_fee_percentage", "claimed"."merchant_fee_percentage", "claimed"."platform_fee_amount_brl", "claimed"."merchant_fee_amount_brl", "claimed"."net_amount_brl", "claimed"."markup_bps", "claimed"."markup_flat_brl", "claimed"."markup_cap_brl", "claimed"."markup_amount_brl", "claimed"."destination_wallet", "claimed"."deposit_address", "claimed"."pix_txid", "claimed"."pix_payment_code", "claimed"."pix_key", "claimed"."pix_key_type", "claimed"."recipient_name", "claimed"."pix_end_to_end_id", "claimed"."provider_transaction_id", "claimed"."refund_id", "claimed"."tx_hash", "claimed"."treasury_wallet", "claimed"."failure_reason", "claimed"."excess_amount_token", "claimed"."payout_refused_at", "claimed"."payout_attempt", "claimed"."dispute_hold", "claimed"."refund_nature", "claimed"."payer_document_type", "claimed"."payer_document", "claimed"."payer_name", "claimed"."limit_day", "claimed"."limit_released", "claimed"."unproven_wallet_reserved", "claimed"."expires_at", "claimed"."completed_at", "claimed"."next_step_at", "claimed"."step_attempts", "claimed"."claimed_until", "claimed"."claimed_by", "claimed"."created_at", "claimed"."updated_at"
