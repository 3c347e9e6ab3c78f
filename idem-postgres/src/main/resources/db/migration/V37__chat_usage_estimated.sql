-- Whether an attempt's token counts are Idem's estimate (a broken stream, a vendor that counted
-- nothing) rather than the vendor's own.
ALTER TABLE chat_attempts ADD COLUMN usage_estimated boolean NOT NULL DEFAULT false;
