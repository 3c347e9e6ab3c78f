-- Video jobs (kind 'video'): the clip's parameters, normalized at intake. NULL on image jobs.
ALTER TABLE jobs
    ADD COLUMN video_seconds         integer CHECK (video_seconds BETWEEN 1 AND 120),
    ADD COLUMN video_resolution      text,
    ADD COLUMN video_aspect_ratio    text,
    ADD COLUMN video_fps             integer,
    ADD COLUMN video_seed            bigint,
    ADD COLUMN video_negative_prompt text,
    ADD COLUMN video_start_image     text,
    ADD COLUMN video_end_image       text,
    ADD COLUMN video_audio           boolean,
    ADD CONSTRAINT jobs_video_params CHECK ((kind = 'video') = (video_seconds IS NOT NULL));
