-- orders-insert-reserved: POST /payin: re-check the receiver, reserve the day, insert the order (creation-repo insertReserved), with the columns create-order.ts sets

      with eligible as (
        select r.id from receivers r
        where r.id = $1 and r.merchant_id = $2
          and ("r"."kyc_status" = $3 and "r"."status" = $4)
          and r.daily_limit_brl is not distinct from $5::numeric
          and r.daily_transaction_limit is not distinct from $6::int
      ), reserved as (
        insert into receiver_daily_usage as u (receiver_id, day, order_count, amount_brl)
        select id, $7::date, 1, $8::numeric from eligible
        where ($9::int is null or 1 <= $10::int)
          and ($11::numeric is null or $12::numeric <= $13::numeric)
        on conflict (receiver_id, day) do update
          set order_count = u.order_count + 1, amount_brl = u.amount_brl + excluded.amount_brl
          where ($14::int is null or u.order_count + 1 <= $15::int)
            and ($16::numeric is null or u.amount_brl + excluded.amount_brl <= $17::numeric)
        returning 1
      ), created as (
        insert into orders ("id", "merchant_id", "receiver_id", "type", "status", "chain", "token", "external_id", "quote_id", "amount_brl", "amount_token", "exchange_rate", "platform_fee_percentage", "merchant_fee_percentage", "platform_fee_amount_brl", "merchant_fee_amount_brl", "net_amount_brl", "destination_wallet", "pix_txid", "pix_payment_code", "limit_day", "expires_at", "created_at", "updated_at")
        select "v"."id", "v"."merchant_id", "v"."receiver_id", "v"."type", "v"."status", "v"."chain", "v"."token", "v"."external_id", "v"."quote_id", "v"."amount_brl", "v"."amount_token", "v"."exchange_rate", "v"."platform_fee_percentage", "v"."merchant_fee_percentage", "v"."platform_fee_amount_brl", "v"."merchant_fee_amount_brl", "v"."net_amount_brl", "v"."destination_wallet", "v"."pix_txid", "v"."pix_payment_code", "v"."limit_day", "v"."expires_at", "v"."created_at", "v"."updated_at"
        from jsonb_populate_record(null::orders, $18::jsonb) v
        where exists (select 1 from reserved)
        returning "id", "merchant_id", "receiver_id", "type", "status", "chain", "token", "external_id", "amount_brl", "amount_token", "exchange_rate", "platform_fee_percentage", "merchant_fee_percentage", "platform_fee_amount_brl", "merchant_fee_amount_brl", "net_amount_brl", "markup_bps", "markup_flat_brl", "markup_cap_brl", "markup_amount_brl", "destination_wallet", "deposit_address", "pix_txid", "pix_payment_code", "pix_key", "pix_key_type", "recipient_name", "pix_end_to_end_id", "provider_transaction_id", "refund_id", "tx_hash", "treasury_wallet", "failure_reason", "excess_amount_token", "payout_refused_at", "payout_attempt", "dispute_hold", "refund_nature", "payer_document_type", "payer_document", "payer_name", "limit_day", "limit_released", "unproven_wallet_reserved", "expires_at", "completed_at", "next_step_at", "step_attempts", "claimed_until", "claimed_by", "created_at", "updated_at"
      )
      select "id", "merchant_id", "receiver_id", "type", "status", "chain", "token", "external_id", "amount_brl", "amount_token", "exchange_rate", "platform_fee_percentage", "merchant_fee_percentage", "platform_fee_amount_brl", "merchant_fee_amount_brl", "net_amount_brl", "markup_bps", "markup_flat_brl", "markup_cap_brl", "markup_amount_brl", "destination_wallet", "deposit_address", "pix_txid", "pix_payment_code", "pix_key", "pix_key_type", "recipient_name", "pix_end_to_end_id", "provider_transaction_id", "refund_id", "tx_hash", "treasury_wallet", "failure_reason", "excess_amount_token", "payout_refused_at", "payout_attempt", "dispute_hold", "refund_nature", "payer_document_type", "payer_document", "payer_name", "limit_day", "limit_released", "unproven_wallet_reserved", "expires_at", "completed_at", "next_step_at", "step_attempts", "claimed_until", "claimed_by", "created_at", "updated_at" from created
