-- orders-insert-reserved: POST /payin: re-check the receiver, reserve the day, insert the order (creation-repo insertReserved), with the columns create-order.ts sets

      with eligible as (
        select r.id from receivers r
        where r.id = $1 and r.merchant_id = $2
          and r.kyc_status = 'APPROVED' and r.status = 'ACTIVE'
          and (not $3::boolean or r.night_transactions_enabled)
          and r.daily_limit_brl is not distinct from $4::numeric
          and r.daily_transaction_limit is not distinct from $5::int
      ), reserved as (
        insert into receiver_daily_usage as u (receiver_id, day, order_count, amount_brl)
        select id, $6::date, 1, $7::numeric from eligible
        where ($8::int is null or 1 <= $9::int)
          and ($10::numeric is null or $11::numeric <= $12::numeric)
        on conflict (receiver_id, day) do update
          set order_count = u.order_count + 1, amount_brl = u.amount_brl + excluded.amount_brl
          where ($13::int is null or u.order_count + 1 <= $14::int)
            and ($15::numeric is null or u.amount_brl + excluded.amount_brl <= $16::numeric)
        returning 1
      )
      insert into orders ("id", "merchant_id", "receiver_id", "type", "status", "chain", "token", "external_id", "quote_id", "amount_brl", "amount_token", "exchange_rate", "platform_fee_percentage", "merchant_fee_percentage", "platform_fee_amount_brl", "merchant_fee_amount_brl", "net_amount_brl", "destination_wallet", "pix_txid", "pix_payment_code", "limit_day", "expires_at", "created_at", "updated_at")
      select "v"."id", "v"."merchant_id", "v"."receiver_id", "v"."type", "v"."status", "v"."chain", "v"."token", "v"."external_id", "v"."quote_id", "v"."amount_brl", "v"."amount_token", "v"."exchange_rate", "v"."platform_fee_percentage", "v"."merchant_fee_percentage", "v"."platform_fee_amount_brl", "v"."merchant_fee_amount_brl", "v"."net_amount_brl", "v"."destination_wallet", "v"."pix_txid", "v"."pix_payment_code", "v"."limit_day", "v"."expires_at", "v"."created_at", "v"."updated_at"
      from jsonb_populate_record(null::orders, $17::jsonb) v
      where exists (select 1 from reserved)
      returning *
