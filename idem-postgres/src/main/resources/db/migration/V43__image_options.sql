-- Image jobs' own parameters (quality, style, background, output_format, output_compression,
-- moderation, provider_options) as the client named them: an object of the named ones only, its
-- provider_options kept as the canonical JSON text the request hash was taken over. NULL when none.
ALTER TABLE jobs
    ADD COLUMN image_options jsonb CHECK (image_options IS NULL OR jsonb_typeof(image_options) = 'object');
