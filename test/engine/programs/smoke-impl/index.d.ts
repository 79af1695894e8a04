import type * as pulumi from "@pulumi/pulumi";
export declare const create: pulumi.dynamic.ResourceProvider["create"];
export declare const diff: NonNullable<pulumi.dynamic.ResourceProvider["diff"]>;
export declare const update: NonNullable<pulumi.dynamic.ResourceProvider["update"]>;
