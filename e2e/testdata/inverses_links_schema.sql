CREATE TABLE public.admin_permissions_role_links (
    id integer NOT NULL,
    permission_id integer,
    role_id integer,
    permission_order double precision
);

CREATE SEQUENCE public.admin_permissions_role_links_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

ALTER SEQUENCE public.admin_permissions_role_links_id_seq OWNED BY public.admin_permissions_role_links.id;

CREATE TABLE public.admin_users_roles_links (
    id integer NOT NULL,
    user_id integer,
    role_id integer,
    role_order double precision,
    user_order double precision
);

CREATE SEQUENCE public.admin_users_roles_links_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

ALTER SEQUENCE public.admin_users_roles_links_id_seq OWNED BY public.admin_users_roles_links.id;

CREATE TABLE public.comments_signed_by_links (
    id integer NOT NULL,
    comment_id integer,
    user_id integer,
    comment_order double precision
);

CREATE SEQUENCE public.comments_signed_by_links_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

ALTER SEQUENCE public.comments_signed_by_links_id_seq OWNED BY public.comments_signed_by_links.id;

CREATE TABLE public.comments_writer_links (
    id integer NOT NULL,
    comment_id integer,
    user_id integer,
    comment_order double precision
);

CREATE SEQUENCE public.comments_writer_links_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

ALTER SEQUENCE public.comments_writer_links_id_seq OWNED BY public.comments_writer_links.id;

CREATE TABLE public.files_folder_links (
    id integer NOT NULL,
    file_id integer,
    folder_id integer,
    file_order double precision
);

CREATE SEQUENCE public.files_folder_links_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

ALTER SEQUENCE public.files_folder_links_id_seq OWNED BY public.files_folder_links.id;

CREATE TABLE public.landlords_broker_links (
    id integer NOT NULL,
    landlord_id integer,
    broker_id integer,
    landlord_order double precision
);

CREATE SEQUENCE public.landlords_broker_links_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

ALTER SEQUENCE public.landlords_broker_links_id_seq OWNED BY public.landlords_broker_links.id;

CREATE TABLE public.landlords_partners_links (
    id integer NOT NULL,
    landlord_id integer,
    inv_landlord_id integer,
    landlord_order double precision,
    inv_landlord_order double precision
);

CREATE SEQUENCE public.landlords_partners_links_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

ALTER SEQUENCE public.landlords_partners_links_id_seq OWNED BY public.landlords_partners_links.id;

CREATE TABLE public.leases_broker_links (
    id integer NOT NULL,
    lease_id integer,
    broker_id integer
);

CREATE SEQUENCE public.leases_broker_links_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

ALTER SEQUENCE public.leases_broker_links_id_seq OWNED BY public.leases_broker_links.id;

CREATE TABLE public.strapi_api_token_permissions_token_links (
    id integer NOT NULL,
    api_token_permission_id integer,
    api_token_id integer,
    api_token_permission_order double precision
);

CREATE SEQUENCE public.strapi_api_token_permissions_token_links_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

ALTER SEQUENCE public.strapi_api_token_permissions_token_links_id_seq OWNED BY public.strapi_api_token_permissions_token_links.id;

CREATE TABLE public.strapi_release_actions_release_links (
    id integer NOT NULL,
    release_action_id integer,
    release_id integer,
    release_action_order double precision
);

CREATE SEQUENCE public.strapi_release_actions_release_links_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

ALTER SEQUENCE public.strapi_release_actions_release_links_id_seq OWNED BY public.strapi_release_actions_release_links.id;

CREATE TABLE public.strapi_transfer_token_permissions_token_links (
    id integer NOT NULL,
    transfer_token_permission_id integer,
    transfer_token_id integer,
    transfer_token_permission_order double precision
);

CREATE SEQUENCE public.strapi_transfer_token_permissions_token_links_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

ALTER SEQUENCE public.strapi_transfer_token_permissions_token_links_id_seq OWNED BY public.strapi_transfer_token_permissions_token_links.id;

CREATE TABLE public.up_permissions_role_links (
    id integer NOT NULL,
    permission_id integer,
    role_id integer,
    permission_order double precision
);

CREATE SEQUENCE public.up_permissions_role_links_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

ALTER SEQUENCE public.up_permissions_role_links_id_seq OWNED BY public.up_permissions_role_links.id;

CREATE TABLE public.up_users_role_links (
    id integer NOT NULL,
    user_id integer,
    role_id integer,
    user_order double precision
);

CREATE SEQUENCE public.up_users_role_links_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

ALTER SEQUENCE public.up_users_role_links_id_seq OWNED BY public.up_users_role_links.id;

CREATE TABLE public.upload_folders_parent_links (
    id integer NOT NULL,
    folder_id integer,
    inv_folder_id integer,
    folder_order double precision
);

CREATE SEQUENCE public.upload_folders_parent_links_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

ALTER SEQUENCE public.upload_folders_parent_links_id_seq OWNED BY public.upload_folders_parent_links.id;

ALTER TABLE ONLY public.admin_permissions_role_links ALTER COLUMN id SET DEFAULT nextval('public.admin_permissions_role_links_id_seq'::regclass);

ALTER TABLE ONLY public.admin_users_roles_links ALTER COLUMN id SET DEFAULT nextval('public.admin_users_roles_links_id_seq'::regclass);

ALTER TABLE ONLY public.comments_signed_by_links ALTER COLUMN id SET DEFAULT nextval('public.comments_signed_by_links_id_seq'::regclass);

ALTER TABLE ONLY public.comments_writer_links ALTER COLUMN id SET DEFAULT nextval('public.comments_writer_links_id_seq'::regclass);

ALTER TABLE ONLY public.files_folder_links ALTER COLUMN id SET DEFAULT nextval('public.files_folder_links_id_seq'::regclass);

ALTER TABLE ONLY public.landlords_broker_links ALTER COLUMN id SET DEFAULT nextval('public.landlords_broker_links_id_seq'::regclass);

ALTER TABLE ONLY public.landlords_partners_links ALTER COLUMN id SET DEFAULT nextval('public.landlords_partners_links_id_seq'::regclass);

ALTER TABLE ONLY public.leases_broker_links ALTER COLUMN id SET DEFAULT nextval('public.leases_broker_links_id_seq'::regclass);

ALTER TABLE ONLY public.strapi_api_token_permissions_token_links ALTER COLUMN id SET DEFAULT nextval('public.strapi_api_token_permissions_token_links_id_seq'::regclass);

ALTER TABLE ONLY public.strapi_release_actions_release_links ALTER COLUMN id SET DEFAULT nextval('public.strapi_release_actions_release_links_id_seq'::regclass);

ALTER TABLE ONLY public.strapi_transfer_token_permissions_token_links ALTER COLUMN id SET DEFAULT nextval('public.strapi_transfer_token_permissions_token_links_id_seq'::regclass);

ALTER TABLE ONLY public.up_permissions_role_links ALTER COLUMN id SET DEFAULT nextval('public.up_permissions_role_links_id_seq'::regclass);

ALTER TABLE ONLY public.up_users_role_links ALTER COLUMN id SET DEFAULT nextval('public.up_users_role_links_id_seq'::regclass);

ALTER TABLE ONLY public.upload_folders_parent_links ALTER COLUMN id SET DEFAULT nextval('public.upload_folders_parent_links_id_seq'::regclass);

ALTER TABLE ONLY public.admin_permissions_role_links
    ADD CONSTRAINT admin_permissions_role_links_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.admin_permissions_role_links
    ADD CONSTRAINT admin_permissions_role_links_unique UNIQUE (permission_id, role_id);

ALTER TABLE ONLY public.admin_users_roles_links
    ADD CONSTRAINT admin_users_roles_links_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.admin_users_roles_links
    ADD CONSTRAINT admin_users_roles_links_unique UNIQUE (user_id, role_id);

ALTER TABLE ONLY public.comments_signed_by_links
    ADD CONSTRAINT comments_signed_by_links_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.comments_signed_by_links
    ADD CONSTRAINT comments_signed_by_links_unique UNIQUE (comment_id, user_id);

ALTER TABLE ONLY public.comments_writer_links
    ADD CONSTRAINT comments_writer_links_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.comments_writer_links
    ADD CONSTRAINT comments_writer_links_unique UNIQUE (comment_id, user_id);

ALTER TABLE ONLY public.files_folder_links
    ADD CONSTRAINT files_folder_links_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.files_folder_links
    ADD CONSTRAINT files_folder_links_unique UNIQUE (file_id, folder_id);

ALTER TABLE ONLY public.landlords_broker_links
    ADD CONSTRAINT landlords_broker_links_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.landlords_broker_links
    ADD CONSTRAINT landlords_broker_links_unique UNIQUE (landlord_id, broker_id);

ALTER TABLE ONLY public.landlords_partners_links
    ADD CONSTRAINT landlords_partners_links_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.landlords_partners_links
    ADD CONSTRAINT landlords_partners_links_unique UNIQUE (landlord_id, inv_landlord_id);

ALTER TABLE ONLY public.leases_broker_links
    ADD CONSTRAINT leases_broker_links_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.leases_broker_links
    ADD CONSTRAINT leases_broker_links_unique UNIQUE (lease_id, broker_id);

ALTER TABLE ONLY public.strapi_api_token_permissions_token_links
    ADD CONSTRAINT strapi_api_token_permissions_token_links_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.strapi_api_token_permissions_token_links
    ADD CONSTRAINT strapi_api_token_permissions_token_links_unique UNIQUE (api_token_permission_id, api_token_id);

ALTER TABLE ONLY public.strapi_release_actions_release_links
    ADD CONSTRAINT strapi_release_actions_release_links_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.strapi_release_actions_release_links
    ADD CONSTRAINT strapi_release_actions_release_links_unique UNIQUE (release_action_id, release_id);

ALTER TABLE ONLY public.strapi_transfer_token_permissions_token_links
    ADD CONSTRAINT strapi_transfer_token_permissions_token_links_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.strapi_transfer_token_permissions_token_links
    ADD CONSTRAINT strapi_transfer_token_permissions_token_links_unique UNIQUE (transfer_token_permission_id, transfer_token_id);

ALTER TABLE ONLY public.up_permissions_role_links
    ADD CONSTRAINT up_permissions_role_links_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.up_permissions_role_links
    ADD CONSTRAINT up_permissions_role_links_unique UNIQUE (permission_id, role_id);

ALTER TABLE ONLY public.up_users_role_links
    ADD CONSTRAINT up_users_role_links_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.up_users_role_links
    ADD CONSTRAINT up_users_role_links_unique UNIQUE (user_id, role_id);

ALTER TABLE ONLY public.upload_folders_parent_links
    ADD CONSTRAINT upload_folders_parent_links_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.upload_folders_parent_links
    ADD CONSTRAINT upload_folders_parent_links_unique UNIQUE (folder_id, inv_folder_id);

CREATE INDEX admin_permissions_role_links_fk ON public.admin_permissions_role_links USING btree (permission_id);

CREATE INDEX admin_permissions_role_links_inv_fk ON public.admin_permissions_role_links USING btree (role_id);

CREATE INDEX admin_permissions_role_links_order_inv_fk ON public.admin_permissions_role_links USING btree (permission_order);

CREATE INDEX admin_users_roles_links_fk ON public.admin_users_roles_links USING btree (user_id);

CREATE INDEX admin_users_roles_links_inv_fk ON public.admin_users_roles_links USING btree (role_id);

CREATE INDEX admin_users_roles_links_order_fk ON public.admin_users_roles_links USING btree (role_order);

CREATE INDEX admin_users_roles_links_order_inv_fk ON public.admin_users_roles_links USING btree (user_order);

CREATE INDEX comments_signed_by_links_fk ON public.comments_signed_by_links USING btree (comment_id);

CREATE INDEX comments_signed_by_links_inv_fk ON public.comments_signed_by_links USING btree (user_id);

CREATE INDEX comments_signed_by_links_order_inv_fk ON public.comments_signed_by_links USING btree (comment_order);

CREATE INDEX comments_writer_links_fk ON public.comments_writer_links USING btree (comment_id);

CREATE INDEX comments_writer_links_inv_fk ON public.comments_writer_links USING btree (user_id);

CREATE INDEX comments_writer_links_order_inv_fk ON public.comments_writer_links USING btree (comment_order);

CREATE INDEX files_folder_links_fk ON public.files_folder_links USING btree (file_id);

CREATE INDEX files_folder_links_inv_fk ON public.files_folder_links USING btree (folder_id);

CREATE INDEX files_folder_links_order_inv_fk ON public.files_folder_links USING btree (file_order);

CREATE INDEX landlords_broker_links_fk ON public.landlords_broker_links USING btree (landlord_id);

CREATE INDEX landlords_broker_links_inv_fk ON public.landlords_broker_links USING btree (broker_id);

CREATE INDEX landlords_broker_links_order_inv_fk ON public.landlords_broker_links USING btree (landlord_order);

CREATE INDEX landlords_partners_links_fk ON public.landlords_partners_links USING btree (landlord_id);

CREATE INDEX landlords_partners_links_inv_fk ON public.landlords_partners_links USING btree (inv_landlord_id);

CREATE INDEX landlords_partners_links_order_fk ON public.landlords_partners_links USING btree (landlord_order);

CREATE INDEX landlords_partners_links_order_inv_fk ON public.landlords_partners_links USING btree (inv_landlord_order);

CREATE INDEX leases_broker_links_fk ON public.leases_broker_links USING btree (lease_id);

CREATE INDEX leases_broker_links_inv_fk ON public.leases_broker_links USING btree (broker_id);

CREATE INDEX strapi_api_token_permissions_token_links_fk ON public.strapi_api_token_permissions_token_links USING btree (api_token_permission_id);

CREATE INDEX strapi_api_token_permissions_token_links_inv_fk ON public.strapi_api_token_permissions_token_links USING btree (api_token_id);

CREATE INDEX strapi_api_token_permissions_token_links_order_inv_fk ON public.strapi_api_token_permissions_token_links USING btree (api_token_permission_order);

CREATE INDEX strapi_release_actions_release_links_fk ON public.strapi_release_actions_release_links USING btree (release_action_id);

CREATE INDEX strapi_release_actions_release_links_inv_fk ON public.strapi_release_actions_release_links USING btree (release_id);

CREATE INDEX strapi_release_actions_release_links_order_inv_fk ON public.strapi_release_actions_release_links USING btree (release_action_order);

CREATE INDEX strapi_transfer_token_permissions_token_links_fk ON public.strapi_transfer_token_permissions_token_links USING btree (transfer_token_permission_id);

CREATE INDEX strapi_transfer_token_permissions_token_links_inv_fk ON public.strapi_transfer_token_permissions_token_links USING btree (transfer_token_id);

CREATE INDEX strapi_transfer_token_permissions_token_links_order_inv_fk ON public.strapi_transfer_token_permissions_token_links USING btree (transfer_token_permission_order);

CREATE INDEX up_permissions_role_links_fk ON public.up_permissions_role_links USING btree (permission_id);

CREATE INDEX up_permissions_role_links_inv_fk ON public.up_permissions_role_links USING btree (role_id);

CREATE INDEX up_permissions_role_links_order_inv_fk ON public.up_permissions_role_links USING btree (permission_order);

CREATE INDEX up_users_role_links_fk ON public.up_users_role_links USING btree (user_id);

CREATE INDEX up_users_role_links_inv_fk ON public.up_users_role_links USING btree (role_id);

CREATE INDEX up_users_role_links_order_inv_fk ON public.up_users_role_links USING btree (user_order);

CREATE INDEX upload_folders_parent_links_fk ON public.upload_folders_parent_links USING btree (folder_id);

CREATE INDEX upload_folders_parent_links_inv_fk ON public.upload_folders_parent_links USING btree (inv_folder_id);

CREATE INDEX upload_folders_parent_links_order_inv_fk ON public.upload_folders_parent_links USING btree (folder_order);

ALTER TABLE ONLY public.admin_permissions_role_links
    ADD CONSTRAINT admin_permissions_role_links_fk FOREIGN KEY (permission_id) REFERENCES public.admin_permissions(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.admin_permissions_role_links
    ADD CONSTRAINT admin_permissions_role_links_inv_fk FOREIGN KEY (role_id) REFERENCES public.admin_roles(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.admin_users_roles_links
    ADD CONSTRAINT admin_users_roles_links_fk FOREIGN KEY (user_id) REFERENCES public.admin_users(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.admin_users_roles_links
    ADD CONSTRAINT admin_users_roles_links_inv_fk FOREIGN KEY (role_id) REFERENCES public.admin_roles(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.comments_signed_by_links
    ADD CONSTRAINT comments_signed_by_links_fk FOREIGN KEY (comment_id) REFERENCES public.comments(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.comments_signed_by_links
    ADD CONSTRAINT comments_signed_by_links_inv_fk FOREIGN KEY (user_id) REFERENCES public.up_users(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.comments_writer_links
    ADD CONSTRAINT comments_writer_links_fk FOREIGN KEY (comment_id) REFERENCES public.comments(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.comments_writer_links
    ADD CONSTRAINT comments_writer_links_inv_fk FOREIGN KEY (user_id) REFERENCES public.up_users(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.files_folder_links
    ADD CONSTRAINT files_folder_links_fk FOREIGN KEY (file_id) REFERENCES public.files(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.files_folder_links
    ADD CONSTRAINT files_folder_links_inv_fk FOREIGN KEY (folder_id) REFERENCES public.upload_folders(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.landlords_broker_links
    ADD CONSTRAINT landlords_broker_links_fk FOREIGN KEY (landlord_id) REFERENCES public.landlords(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.landlords_broker_links
    ADD CONSTRAINT landlords_broker_links_inv_fk FOREIGN KEY (broker_id) REFERENCES public.brokers(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.landlords_partners_links
    ADD CONSTRAINT landlords_partners_links_fk FOREIGN KEY (landlord_id) REFERENCES public.landlords(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.landlords_partners_links
    ADD CONSTRAINT landlords_partners_links_inv_fk FOREIGN KEY (inv_landlord_id) REFERENCES public.landlords(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.leases_broker_links
    ADD CONSTRAINT leases_broker_links_fk FOREIGN KEY (lease_id) REFERENCES public.leases(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.leases_broker_links
    ADD CONSTRAINT leases_broker_links_inv_fk FOREIGN KEY (broker_id) REFERENCES public.brokers(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.strapi_api_token_permissions_token_links
    ADD CONSTRAINT strapi_api_token_permissions_token_links_fk FOREIGN KEY (api_token_permission_id) REFERENCES public.strapi_api_token_permissions(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.strapi_api_token_permissions_token_links
    ADD CONSTRAINT strapi_api_token_permissions_token_links_inv_fk FOREIGN KEY (api_token_id) REFERENCES public.strapi_api_tokens(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.strapi_release_actions_release_links
    ADD CONSTRAINT strapi_release_actions_release_links_fk FOREIGN KEY (release_action_id) REFERENCES public.strapi_release_actions(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.strapi_release_actions_release_links
    ADD CONSTRAINT strapi_release_actions_release_links_inv_fk FOREIGN KEY (release_id) REFERENCES public.strapi_releases(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.strapi_transfer_token_permissions_token_links
    ADD CONSTRAINT strapi_transfer_token_permissions_token_links_fk FOREIGN KEY (transfer_token_permission_id) REFERENCES public.strapi_transfer_token_permissions(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.strapi_transfer_token_permissions_token_links
    ADD CONSTRAINT strapi_transfer_token_permissions_token_links_inv_fk FOREIGN KEY (transfer_token_id) REFERENCES public.strapi_transfer_tokens(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.up_permissions_role_links
    ADD CONSTRAINT up_permissions_role_links_fk FOREIGN KEY (permission_id) REFERENCES public.up_permissions(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.up_permissions_role_links
    ADD CONSTRAINT up_permissions_role_links_inv_fk FOREIGN KEY (role_id) REFERENCES public.up_roles(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.up_users_role_links
    ADD CONSTRAINT up_users_role_links_fk FOREIGN KEY (user_id) REFERENCES public.up_users(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.up_users_role_links
    ADD CONSTRAINT up_users_role_links_inv_fk FOREIGN KEY (role_id) REFERENCES public.up_roles(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.upload_folders_parent_links
    ADD CONSTRAINT upload_folders_parent_links_fk FOREIGN KEY (folder_id) REFERENCES public.upload_folders(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.upload_folders_parent_links
    ADD CONSTRAINT upload_folders_parent_links_inv_fk FOREIGN KEY (inv_folder_id) REFERENCES public.upload_folders(id) ON DELETE CASCADE;
